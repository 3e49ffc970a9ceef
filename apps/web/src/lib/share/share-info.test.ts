import type { LotDetail, MallItemDetail, SpecialDetail } from '@numisma/contracts/catalog'
import { ShareInfoSchema } from '@numisma/contracts/share'
import { describe, expect, it } from 'vitest'
import { createTranslator } from '../i18n'
import { en } from '../locales/en'
import { zhCN } from '../locales/zh-cn'
import { defaultShareInfo, lotShare, mallItemShare, specialShare, toShareInfo } from './share-info'

const zh = createTranslator(zhCN)
const english = createTranslator(en)

const buildLot = (overrides: Partial<LotDetail> = {}): LotDetail => ({
  id: 7,
  specialId: 3,
  lotNo: 12,
  title: '光绪元宝 七钱二分',
  image: '/media/lot-7-card.jpg',
  gradeCode: 1,
  gradingService: null,
  startPrice: 100_000,
  price: 123_456_78,
  bidCount: 4,
  startsAt: '2026-11-26T02:00:00.000Z',
  endsAt: '2026-11-27T12:00:00.000Z',
  status: 'live',
  specialTitle: '秋季钱币专场',
  categoryId: null,
  subtitle: '',
  description: '',
  images: ['/media/lot-7-front.jpg', '/media/lot-7-back.jpg'],
  certNo: null,
  year: '',
  denomination: '',
  material: '',
  exportBanned: false,
  hasReserve: false,
  reserveMet: false,
  leading: false,
  myMax: null,
  won: false,
  orderId: null,
  softCloseWindowSeconds: 300,
  softCloseExtendSeconds: 300,
  ...overrides,
})

const PAGE = 'https://shop.example/productDetail?id=7#bids'

describe('lotShare', () => {
  it('shares the title, the shown price in the spec §5 format and the first photo', () => {
    const info = toShareInfo(lotShare(buildLot(), zh), PAGE)
    expect(info).toEqual({
      title: '光绪元宝 七钱二分',
      desc: '当前价 ¥123,456.78 · 秋季钱币专场',
      link: 'https://shop.example/productDetail?id=7',
      imgUrl: 'https://shop.example/media/lot-7-front.jpg',
      // The timeline card shows the title only: the price goes into it.
      timelineTitle: '光绪元宝 七钱二分 · 当前价 ¥123,456.78',
    })
    expect(ShareInfoSchema.parse(info)).toEqual(info)
  })

  it('names the start price before the first bid, and uses the card image without photos', () => {
    const share = lotShare(buildLot({ price: null, images: [] }), english)
    expect(share.desc).toBe('Starting bid ¥1,000.00 · 秋季钱币专场')
    expect(share.imgUrl).toBe('/media/lot-7-card.jpg')
  })
})

describe('mallItemShare and specialShare', () => {
  it('shares a mall item with its price and first photo', () => {
    const item = {
      title: '民国三年袁大头',
      price: 88_000,
      image: '/m/card.jpg',
      images: ['https://cdn.example/m/1.jpg'],
    } as MallItemDetail
    const info = toShareInfo(
      mallItemShare(item, zh),
      'https://shop.example/productDetail?productNo=M1',
    )
    expect(info.desc).toBe('售价 ¥880.00')
    expect(info.timelineTitle).toBe('民国三年袁大头 · 售价 ¥880.00')
    expect(info.imgUrl).toBe('https://cdn.example/m/1.jpg')
  })

  it('shares a special with its times in China time and its banner', () => {
    const special = {
      title: '秋季钱币专场',
      cover: '/media/special-3.jpg',
      startsAt: '2026-11-26T02:00:00.000Z',
      endsAt: '2026-11-27T12:00:00.000Z',
    } as SpecialDetail
    const share = specialShare(special, zh)
    expect(share).toEqual({
      title: '秋季钱币专场',
      desc: '11-26 10:00 开拍 · 11-27 20:00 首件结拍',
      imgUrl: '/media/special-3.jpg',
    })
  })
})

describe('defaultShareInfo and toShareInfo', () => {
  it('shares the shop: its name and slogan, the home page and the site icon as a PNG', () => {
    expect(defaultShareInfo('https://shop.example', zh)).toEqual({
      title: '泉藏拍卖',
      desc: '钱币 · 纸币 · 收藏拍卖',
      link: 'https://shop.example/',
      imgUrl: 'https://shop.example/share-icon.png',
    })
  })

  it('shares our SVG artwork as its PNG rendition, which share cards can draw', () => {
    const art = '/svc/media/art/eyJraW5kIjoiY29pbiJ9.svg'
    const at = (imgUrl: string) => toShareInfo({ title: 't', desc: '', imgUrl }, PAGE).imgUrl
    expect(at(art)).toBe('https://shop.example/svc/media/art/eyJraW5kIjoiY29pbiJ9.png')
    expect(at(`https://shop.example${art}`)).toBe(
      'https://shop.example/svc/media/art/eyJraW5kIjoiY29pbiJ9.png',
    )
    // Not ours, or not our artwork: left alone (we cannot promise a PNG elsewhere).
    expect(at(`https://cdn.example${art}`)).toBe(`https://cdn.example${art}`)
    expect(at('/logo.svg')).toBe('https://shop.example/logo.svg')
    expect(at('/media/lot-7-front.jpg')).toBe('https://shop.example/media/lot-7-front.jpg')
  })

  it('cuts a title and description longer than the contract allows', () => {
    const info = toShareInfo(
      {
        title: '钱'.repeat(200),
        desc: 'x'.repeat(300),
        imgUrl: '/a.jpg',
        timelineTitle: '钱'.repeat(200),
      },
      PAGE,
    )
    expect(ShareInfoSchema.safeParse(info).success).toBe(true)
    expect(info.title.endsWith('…')).toBe(true)
    expect(info.timelineTitle?.endsWith('…')).toBe(true)
  })
})
