import type { LotDetail, MallItemDetail } from '@numisma/contracts/catalog'
import { gradeName, hasGrade } from '@numisma/contracts/grades'
import { AppError } from '../../platform/errors'
import type { CardFill } from './service'

/** The catalogue's reads a card needs (CatalogService satisfies it). */
export interface CardCatalogue {
  lot(id: number, viewer: { userId: null; myMax: null; orderId: null }): Promise<LotDetail>
  mallItem(productNo: string, viewer: { watched: false; boughtByMe: 0 }): Promise<MallItemDetail>
}

/** "PCGS MS64 · 专场" — the grade (with its service) and where the item is. */
const subtitleOf = (gradeCode: number, gradingService: string | null, where: string) =>
  [
    hasGrade(gradeCode) ? [gradingService, gradeName(gradeCode)].filter(Boolean).join(' ') : '',
    where,
  ]
    .filter((part) => part !== '')
    .join(' · ')

/** undefined for an item the catalogue does not know; other failures stay failures. */
async function orMissing<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined
    throw error
  }
}

/**
 * An item's card as the server fills it (spec §3 chat context): title, subtitle, first picture,
 * price (a lot's current price, or its start price before the first bid; a mall item's price) and
 * its page in the shop. Read as an anonymous visitor: a card shows what anyone may see.
 */
export function catalogueCards(catalogue: CardCatalogue): {
  lot(id: number): Promise<CardFill | undefined>
  mall(productNo: string): Promise<CardFill | undefined>
} {
  return {
    async lot(id) {
      const lot = await orMissing(catalogue.lot(id, { userId: null, myMax: null, orderId: null }))
      return (
        lot && {
          title: lot.title,
          subtitle: subtitleOf(lot.gradeCode, lot.gradingService, lot.specialTitle),
          image: lot.images[0] ?? lot.image,
          price: lot.price ?? lot.startPrice,
          link: `/productDetail?id=${lot.id}`,
        }
      )
    },
    async mall(productNo) {
      const item = await orMissing(catalogue.mallItem(productNo, { watched: false, boughtByMe: 0 }))
      return (
        item && {
          title: item.title,
          subtitle: subtitleOf(item.gradeCode, item.gradingService, item.subtitle),
          image: item.images[0] ?? item.image,
          price: item.price,
          link: `/productDetail?productNo=${encodeURIComponent(item.productNo)}`,
        }
      )
    },
  }
}
