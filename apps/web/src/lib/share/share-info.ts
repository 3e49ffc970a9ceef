import type { LotDetail, MallItemDetail, SpecialDetail } from '@numisma/contracts/catalog'
import { formatChinaDate } from '@numisma/contracts/dates'
import { formatFen } from '@numisma/contracts/money'
import type { ShareInfo } from '@numisma/contracts/share'
import type { TFunction } from '../i18n'
import { shownPrice } from '../lot-outcome'

/**
 * What a page says about itself when shared (spec §3 share info) before it knows its own address:
 * `imgUrl` may still be a path. {@link toShareInfo} adds the page's link and makes both absolute.
 */
export type PageShare = Omit<ShareInfo, 'link'>

/** The picture a page without its own shares: the site icon as a PNG (the platforms draw no SVG). */
export const SITE_SHARE_ICON = '/share-icon.png'

const TITLE_MAX = 120
const DESC_MAX = 240
const SPECIAL_DATE = 'MM-DD HH:mm'

/** A lot: its title, the price it shows (current, start or hammer, spec §5 format), its first photo. */
export function lotShare(lot: LotDetail, t: TFunction): PageShare {
  const shown = shownPrice(lot)
  const price = t('share.priceLine', { label: t(shown.labelKey), price: formatFen(shown.fen) })
  return {
    title: lot.title,
    timelineTitle: t('share.timelineTitle', { title: lot.title, price }),
    desc: t('share.lotDesc', {
      label: t(shown.labelKey),
      price: formatFen(shown.fen),
      special: lot.specialTitle,
    }),
    imgUrl: lot.images[0] ?? lot.image,
  }
}

export function mallItemShare(item: MallItemDetail, t: TFunction): PageShare {
  const price = t('share.mallDesc', { price: formatFen(item.price) })
  return {
    title: item.title,
    timelineTitle: t('share.timelineTitle', { title: item.title, price }),
    desc: price,
    imgUrl: item.images[0] ?? item.image,
  }
}

/** A special: its title, when it opens and when its first lot closes (China time), its banner. */
export function specialShare(special: SpecialDetail, t: TFunction): PageShare {
  return {
    title: special.title,
    desc: t('share.specialDesc', {
      start: formatChinaDate(special.startsAt, SPECIAL_DATE),
      end: formatChinaDate(special.endsAt, SPECIAL_DATE),
    }),
    imgUrl: special.cover,
  }
}

/**
 * Every other page shares the shop itself: a friend opening a shared order list or address book
 * would only meet a sign-in screen, so the link is the home page, not the page.
 */
export function defaultShareInfo(origin: string, t: TFunction): ShareInfo {
  return {
    title: t('brand.name'),
    desc: t('brand.slogan'),
    link: new URL('/', origin).href,
    imgUrl: new URL(SITE_SHARE_ICON, origin).href,
  }
}

/** Our generated artwork (server modules/media): SVG, which share cards cannot draw. */
const ARTWORK_SVG = /^\/svc\/media\/art\/[A-Za-z0-9_-]+\.svg$/

/**
 * The picture a share card can draw: our artwork's PNG rendition (same path, `.png`) instead of its
 * SVG. Only for this shop's own artwork: another host's picture is left as it is.
 */
function sharePicture(imgUrl: string, origin: string): string {
  const url = new URL(imgUrl, origin)
  if (url.origin === origin && ARTWORK_SVG.test(url.pathname)) {
    url.pathname = `${url.pathname.slice(0, -'.svg'.length)}.png`
  }
  return url.href
}

/**
 * The page's share info with its own address: absolute, without the hash (the messaging platform
 * signs and opens URLs without it), the picture absolute too (the platform fetches it from its own
 * servers), and title and description cut to what {@link ShareInfo} allows.
 */
export function toShareInfo(share: PageShare, pageUrl: string): ShareInfo {
  const link = new URL(pageUrl)
  link.hash = ''
  return {
    title: cut(share.title, TITLE_MAX),
    desc: cut(share.desc, DESC_MAX),
    link: link.href,
    imgUrl: sharePicture(share.imgUrl, link.origin),
    ...(share.timelineTitle === undefined
      ? {}
      : { timelineTitle: cut(share.timelineTitle, TITLE_MAX) }),
  }
}

function cut(text: string, max: number): string {
  const chars = Array.from(text)
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`
}
