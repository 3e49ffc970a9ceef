import { HeartFill, HeartOutline } from 'antd-mobile-icons'
import { useTranslation } from '../../../lib/i18n'
import { useLocation } from 'react-router'
import { readSession } from '../../../lib/cookies'
import { startSignIn } from '../../../lib/in-app/sign-in'
import { useSignInIntent, withSignInIntent } from '../../../lib/sign-in-intent'
import { showSuccess } from '../../../lib/toast'
import { useWatchState } from '../api/get-watch-state'
import { useToggleWatch } from '../hooks/use-toggle-watch'
import styles from './watch-button.module.css'

/** The 关注 heart of a lot: reads GET /auction/{id}/@attention, toggles with POST/DELETE. */
export function WatchButton({ lotId }: { lotId: number }) {
  const { t } = useTranslation()
  const location = useLocation()
  const signedIn = readSession() !== null
  const state = useWatchState(lotId, signedIn)
  const toggle = useToggleWatch((r) =>
    showSuccess(r.watching ? t('bid.watched') : t('bid.unwatched'), 1200),
  )
  const watching = state.data === true

  const setWatch = (watch: boolean) => toggle.mutate({ lotId, watch })

  // Back from the sign-in a guest's tap started: watch once, unless the lot already is.
  useSignInIntent('watch', signedIn && state.isSuccess, () => {
    if (!watching) setWatch(true)
  })

  const onClick = () => {
    if (!signedIn) {
      startSignIn(withSignInIntent(location.pathname + location.search + location.hash, 'watch'))
      return
    }
    if (toggle.isPending || state.isPending) return
    setWatch(!watching)
  }

  return (
    <button
      type="button"
      className={watching ? `${styles.button} ${styles.on}` : styles.button}
      aria-pressed={watching}
      data-testid="watch-button"
      onClick={onClick}
    >
      {watching ? <HeartFill /> : <HeartOutline />}
      <span>{watching ? t('bid.watching') : t('bid.watch')}</span>
    </button>
  )
}
