import type { Notice } from '@numisma/contracts/notices'
import { describe, expect, it } from 'vitest'
import { createTranslator } from '../i18n'
import { en } from '../locales/en'
import { zhCN } from '../locales/zh-cn'
import { noticeWording } from './wording'

const zh = createTranslator(zhCN)
const english = createTranslator(en)

const buildNotice = (overrides: Partial<Notice> = {}): Notice => ({
  id: 1,
  kind: 'outbid',
  params: { lotId: 12, title: '光绪元宝', price: 1_234_500 },
  link: '/productDetail?id=12',
  createdAt: '2026-11-26T02:00:00.000Z',
  read: false,
  ...overrides,
})

describe('noticeWording', () => {
  it("words a notice in the reader's language from its facts", () => {
    const notice = buildNotice()
    expect(noticeWording(notice, zh)).toEqual({
      title: '您的出价已被超过',
      body: '「光绪元宝」当前价 ¥12,345.00，快去看看吧',
    })
    expect(noticeWording(notice, english)).toEqual({
      title: 'You have been outbid',
      body: '“光绪元宝” is now at ¥12,345.00',
    })
  })

  it('gives times in China time, and the due time of a won lot', () => {
    const won = buildNotice({
      kind: 'lot_won',
      params: {
        lotId: 12,
        title: '光绪元宝',
        price: 100_000,
        orderId: 7,
        dueAt: '2026-11-29T02:00:00.000Z',
      },
    })
    expect(noticeWording(won, zh).body).toBe(
      '「光绪元宝」成交价 ¥1,000.00，请于 11-29 10:00 前付款',
    )
    const ending = buildNotice({
      kind: 'ending_soon',
      params: { lotId: 12, title: '光绪元宝', endsAt: '2026-11-26T12:05:00.000Z' },
    })
    expect(noticeWording(ending, english).body).toBe('“光绪元宝” ends at 11-26 20:05')
  })

  it("adds staff's note when there is one", () => {
    const refused = (note?: string) =>
      buildNotice({
        kind: 'withdrawal_refused',
        params: { withdrawalId: 3, amount: 5_000, ...(note ? { note } : {}) },
      })
    expect(noticeWording(refused(), zh).body).toBe('您的提现 ¥50.00 未通过，款项已退回')
    expect(noticeWording(refused('账户名不符'), zh).body).toBe(
      '您的提现 ¥50.00 未通过，款项已退回（备注：账户名不符）',
    )
  })

  it('says only "a new notice" when the facts do not fit the kind, never a sentence with holes', () => {
    const broken = buildNotice({ params: { lotId: 12 } })
    expect(noticeWording(broken, zh)).toEqual({ title: '新消息', body: '请更新到最新版本查看' })
    expect(noticeWording(broken, english).title).toBe('New notice')
  })
})
