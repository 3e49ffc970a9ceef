import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { formatFen } from '@numisma/contracts/money'
import { useTranslation } from 'react-i18next'
import { pushManager } from '../../../lib/push'
import { inBackground } from '../../../lib/background'
import { showToast } from '../../../lib/toast'
import { getLotQueryOptions } from '../api/get-lot'
import { ReminderNotices } from './reminder-notices'

/**
 * Mounted once in the app layout for a signed-in user: an `outbid` push becomes a toast on any
 * page, and what depends on who leads (the lot, my bids, my proxy bids) is fetched again; an
 * ending-soon reminder for a watched lot becomes a notice with a link to it.
 */
export function OutbidNotifier() {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  useEffect(
    () =>
      pushManager().onOutbid((message) => {
        const lotKey = getLotQueryOptions(message.lotId).queryKey
        const cached = queryClient.getQueryData(lotKey)
        const title = cached?.title ?? t('bid.lotFallback', { id: message.lotId })
        showToast(t('bid.outbidToast', { title, price: `¥${formatFen(message.price)}` }))
        inBackground(queryClient.invalidateQueries({ queryKey: lotKey }))
        inBackground(queryClient.invalidateQueries({ queryKey: ['bidding', 'mine'] }))
      }),
    [queryClient, t],
  )
  return <ReminderNotices />
}
