import { formatChinaDate } from '@numisma/contracts/dates'
import { formatFen } from '@numisma/contracts/money'
import { NOTICE_PARAMS, type Notice } from '@numisma/contracts/notices'
import type { TFunction } from '../i18n'

export interface NoticeWording {
  title: string
  body: string
}

const yuan = (fen: number) => formatFen(fen)
const when = (iso: string) => formatChinaDate(iso, 'MM-DD HH:mm')

/**
 * A notice in the reader's language, from its kind and facts (the server stores facts, not
 * sentences). Facts that do not fit their kind — a notice from a newer server, a damaged row —
 * give a plain "you have a notice", never a sentence with holes in it.
 */
export function noticeWording(
  notice: Pick<Notice, 'kind' | 'params'>,
  t: TFunction,
): NoticeWording {
  const fallback = { title: t('notices.kind.other.title'), body: t('notices.kind.other.body') }
  switch (notice.kind) {
    case 'outbid': {
      const p = NOTICE_PARAMS.outbid.safeParse(notice.params)
      if (!p.success) return fallback
      return {
        title: t('notices.kind.outbid.title'),
        body: t('notices.kind.outbid.body', { title: p.data.title, price: yuan(p.data.price) }),
      }
    }
    case 'ending_soon': {
      const p = NOTICE_PARAMS.ending_soon.safeParse(notice.params)
      if (!p.success) return fallback
      return {
        title: t('notices.kind.ending_soon.title'),
        body: t('notices.kind.ending_soon.body', { title: p.data.title, at: when(p.data.endsAt) }),
      }
    }
    case 'lot_won': {
      const p = NOTICE_PARAMS.lot_won.safeParse(notice.params)
      if (!p.success) return fallback
      return {
        title: t('notices.kind.lot_won.title'),
        body: t('notices.kind.lot_won.body', {
          title: p.data.title,
          price: yuan(p.data.price),
          at: when(p.data.dueAt),
        }),
      }
    }
    case 'order_overdue': {
      const p = NOTICE_PARAMS.order_overdue.safeParse(notice.params)
      if (!p.success) return fallback
      return {
        title: t('notices.kind.order_overdue.title'),
        body: t('notices.kind.order_overdue.body', { title: p.data.title }),
      }
    }
    case 'order_forfeited': {
      const p = NOTICE_PARAMS.order_forfeited.safeParse(notice.params)
      if (!p.success) return fallback
      return {
        title: t('notices.kind.order_forfeited.title'),
        body: t('notices.kind.order_forfeited.body', {
          orderId: p.data.orderId,
          amount: yuan(p.data.amount),
        }),
      }
    }
    case 'remittance_confirmed': {
      const p = NOTICE_PARAMS.remittance_confirmed.safeParse(notice.params)
      if (!p.success) return fallback
      return {
        title: t('notices.kind.remittance_confirmed.title'),
        body: t('notices.kind.remittance_confirmed.body', { amount: yuan(p.data.amount) }),
      }
    }
    case 'remittance_rejected': {
      const p = NOTICE_PARAMS.remittance_rejected.safeParse(notice.params)
      if (!p.success) return fallback
      return {
        title: t('notices.kind.remittance_rejected.title'),
        body: withNote(t('notices.kind.remittance_rejected.body'), p.data.note, t),
      }
    }
    case 'withdrawal_paid': {
      const p = NOTICE_PARAMS.withdrawal_paid.safeParse(notice.params)
      if (!p.success) return fallback
      return {
        title: t('notices.kind.withdrawal_paid.title'),
        body: t('notices.kind.withdrawal_paid.body', { amount: yuan(p.data.amount) }),
      }
    }
    case 'withdrawal_refused': {
      const p = NOTICE_PARAMS.withdrawal_refused.safeParse(notice.params)
      if (!p.success) return fallback
      return {
        title: t('notices.kind.withdrawal_refused.title'),
        body: withNote(
          t('notices.kind.withdrawal_refused.body', { amount: yuan(p.data.amount) }),
          p.data.note,
          t,
        ),
      }
    }
  }
}

/** Staff's note, when they left one, after the sentence. */
function withNote(sentence: string, note: string | undefined, t: TFunction): string {
  return note ? `${sentence}${t('notices.note', { note })}` : sentence
}
