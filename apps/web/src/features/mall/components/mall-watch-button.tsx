import type { MallItemDetail } from '@numisma/contracts/catalog'
import { HeartFill, HeartOutline } from 'antd-mobile-icons'
import { useTranslation } from '../../../lib/i18n'
import { useLocation } from 'react-router'
import { readSession } from '../../../lib/cookies'
import { startSignIn } from '../../../lib/in-app/sign-in'
import { useToggleMallWatch } from '../../../lib/mall/watch'
import { useSignInIntent, withSignInIntent } from '../../../lib/sign-in-intent'
import { showSuccess } from '../../../lib/toast'
import styles from './mall-watch-button.module.css'

/**
 * The 关注 heart of a mall item, beside the buy button. The item's `watched` is the state; the
 * heart turns only once the server said 2xx (spec §4), and a guest is sent to sign in.
 */
export function MallWatchButton({ item }: { item: MallItemDetail }) {
  const { t } = useTranslation()
  const location = useLocation()
  const toggle = useToggleMallWatch((r) =>
    showSuccess(r.watched ? t('buy.watched') : t('buy.unwatched'), 1200),
  )
  const watching = item.watched
  const signedIn = readSession() !== null

  const setWatch = (watch: boolean) => toggle.mutate({ productNo: item.productNo, watch })

  // Back from the sign-in a guest's tap started (the item is loaded: it is a prop): watch once,
  // unless the item already is.
  useSignInIntent('watch', signedIn, () => {
    if (!watching) setWatch(true)
  })

  const onClick = () => {
    if (!signedIn) {
      startSignIn(withSignInIntent(location.pathname + location.search + location.hash, 'watch'))
      return
    }
    if (toggle.isPending) return
    setWatch(!watching)
  }

  return (
    <button
      type="button"
      className={watching ? `${styles.button} ${styles.on}` : styles.button}
      aria-pressed={watching}
      data-testid="mall-watch-button"
      disabled={toggle.isPending}
      onClick={onClick}
    >
      {watching ? <HeartFill /> : <HeartOutline />}
      <span>{watching ? t('buy.watching') : t('buy.watch')}</span>
    </button>
  )
}
