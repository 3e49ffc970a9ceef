import { useCallback, useEffect, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { formatFen } from '@numisma/contracts/money'
import { useTranslation } from '../../../lib/i18n'
import { useLocation } from 'react-router'
import { inBackground } from '../../../lib/background'
import { useChatNews } from '../../../lib/chat/unread'
import { pushManager } from '../../../lib/push'
import { showToast } from '../../../lib/toast'
import { getLotQueryOptions } from '../api/get-lot'
import { addNotice, dismissNotice, type LotNotice } from './reminder-list'
import { LotNotices, NOTICE_SHOWN_MS } from './reminder-notices'

/** Whether the page on screen is this lot's own (which shows the outbid state itself). */
const isLotPage = (pathname: string, search: string, lotId: number) =>
  pathname === '/productDetail' && new URLSearchParams(search).get('id') === String(lotId)

/**
 * Mounted once in the app layout for a signed-in user. An `outbid` push refreshes what depends on
 * who leads (the lot, my bids, my proxy bids); on the lot's own page it is a toast, elsewhere a
 * notice with the lot's title and a link to bid again. An ending-soon reminder for a watched lot
 * becomes a notice with a link to it. An agent's chat answer refreshes the unread badge.
 */
export function OutbidNotifier() {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const { pathname, search } = useLocation()
  const [notices, setNotices] = useState<LotNotice[]>([])
  useChatNews()

  const show = useCallback((notice: LotNotice) => {
    setNotices((list) => addNotice(list, notice))
    setTimeout(() => setNotices((list) => dismissNotice(list, notice)), NOTICE_SHOWN_MS)
  }, [])

  useEffect(
    () =>
      pushManager().onOutbid((message) => {
        const lot = getLotQueryOptions(message.lotId)
        const price = `¥${formatFen(message.price)}`
        const onItsPage = isLotPage(window.location.pathname, window.location.search, message.lotId)
        inBackground(
          // The title from the cache, or one read of the lot; the number only if that fails.
          queryClient
            .query({ ...lot, staleTime: 60_000 })
            .then((detail) => detail.title)
            .catch(() => t('bid.lotFallback', { id: message.lotId }))
            .then((title) => {
              const text = t('bid.outbidToast', { title, price })
              if (onItsPage) showToast(text)
              else show({ kind: 'outbid', lotId: message.lotId, text })
            }),
        )
        inBackground(queryClient.invalidateQueries({ queryKey: lot.queryKey }))
        inBackground(queryClient.invalidateQueries({ queryKey: ['bidding', 'mine'] }))
      }),
    [queryClient, t, show],
  )

  useEffect(
    () =>
      pushManager().onReminder((message) =>
        show({
          kind: 'reminder',
          lotId: message.lotId,
          text: t('bid.reminder', { title: message.title }),
        }),
      ),
    [t, show],
  )

  // On the lot's own page its notices are moot: the page shows the same news.
  const visible = notices.filter((n) => !isLotPage(pathname, search, n.lotId))
  return <LotNotices notices={visible} onDismiss={(n) => setNotices((l) => dismissNotice(l, n))} />
}
