import { errorText } from '@numisma/contracts/errors'
import { useEffect } from 'react'
import { useLocation } from 'react-router'
import { neverSent } from '../api-client'
import { currentLanguage, toLocale } from '../language'
import { showToast } from '../toast'
import { getShareSignature } from './get-share-signature'
import { useCurrentShareInfo } from './share-store'
import { createWxShare } from './wx-share'

const wxShare = createWxShare({
  // Its own chunk, fetched only inside the messaging app (this module is lazy itself).
  loadSdk: async () => (await import('weixin-js-sdk')).default,
  signature: getShareSignature,
  failed(error) {
    // Offline was already said by an alert, and nothing was asked of the server.
    if (neverSent(error)) return
    showToast(errorText('SHARE_INIT_FAILED', toLocale(currentLanguage())))
  },
})

/**
 * Inside the messaging app: after every route change, sign and config the JS-SDK for the new URL
 * and hand its share menu the page's share info (spec §7 "Share"; the platform's note on
 * single-page apps). Rendered once, beside the routes.
 */
export function MessagingShare() {
  const { pathname, search } = useLocation()
  const info = useCurrentShareInfo()
  useEffect(() => {
    // The URL the platform sees now, without the hash (it signs and checks it so); the route's
    // pathname and search only say when it changed.
    const url = new URL(window.location.href)
    url.hash = ''
    wxShare.show(url.href, info)
  }, [pathname, search, info])
  return null
}
