import { isAppError } from '../../platform/errors'
import { parseTradeNo } from './rules'
import type { NoticeCheck, PayNotice } from './wechat-pay'

export interface NoticeDeps {
  /** Checks sign, merchant and fields (WechatPayClient). */
  check(body: string): NoticeCheck
  payments: { settleNotice(id: number, notice: PayNotice): Promise<NoticeOutcome> }
  recharges: { settleNotice(id: number, notice: PayNotice): Promise<NoticeOutcome> }
}

export type NoticeOutcome = 'settled' | 'replayed' | 'ignored'

export type NoticeVerdict = { ok: true; outcome: NoticeOutcome } | { ok: false; reason: string }

/**
 * The messaging platform's payment notices (`POST /svc/main/pay/notify/wechat`): the only word
 * that pays an order or credits a recharge with money from outside — never the browser's. A notice
 * is trusted by its MD5 sign with our merchant key, then routed by our trade number (`P…` a
 * payment, `R…` a recharge), whose amount it must match.
 */
export class PayNotices {
  constructor(private readonly deps: NoticeDeps) {}

  async receive(body: string): Promise<NoticeVerdict> {
    const checked = this.deps.check(body)
    if (!checked.ok) return checked
    const { notice } = checked
    const ref = parseTradeNo(notice.outTradeNo)
    if (!ref) return { ok: false, reason: 'not our trade number' }
    try {
      const target = ref.kind === 'payment' ? this.deps.payments : this.deps.recharges
      return { ok: true, outcome: await target.settleNotice(ref.id, notice) }
    } catch (error) {
      if (isAppError(error) && error.code === 'PAY_NOTICE_INVALID') {
        const reason = error.details?.reason
        return { ok: false, reason: typeof reason === 'string' ? reason : 'refused' }
      }
      throw error
    }
  }
}
