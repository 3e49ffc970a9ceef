import { useEffect } from 'react'
import { FloatingBubble } from 'antd-mobile'
import { CloseCircleOutline, RedoOutline } from 'antd-mobile-icons'
import { useTranslation } from '../lib/i18n'
import { logout } from '../features/account/api/logout'
import { clearAllCookies } from '../lib/cookies'
import { inBackground } from '../lib/background'

const BUBBLE = {
  '--initial-position-right': '12px',
  '--edge-distance': '12px',
  '--size': '40px',
  '--background': 'rgba(38, 38, 38, 0.55)',
  '--z-index': '1200',
}

/**
 * Spec §2 on non-production hosts: a debug console (eruda, loaded on its own so it never weighs on
 * the shop bundle), a refresh button and a logout button that clears every cookie.
 */
export function DebugTools() {
  const { t } = useTranslation()

  useEffect(() => {
    inBackground(
      import('eruda').then(({ default: eruda }) => {
        eruda.init({ defaults: { displaySize: 50 } })
        // Keep the console's entry button clear of the tab bar and the bid bar (all three can be dragged).
        eruda.position({ x: 12, y: window.innerHeight - 360 })
      }),
    )
  }, [])

  const signOut = async (): Promise<void> => {
    await logout()
    clearAllCookies()
    window.location.reload()
  }

  return (
    <>
      <FloatingBubble
        className="debug-bubble debug-refresh"
        axis="xy"
        magnetic="x"
        style={{ ...BUBBLE, '--initial-position-bottom': '360px' }}
        onClick={() => window.location.reload()}
      >
        <RedoOutline fontSize={20} aria-label={t('debug.refresh')} />
      </FloatingBubble>
      <FloatingBubble
        className="debug-bubble debug-logout"
        axis="xy"
        magnetic="x"
        style={{ ...BUBBLE, '--initial-position-bottom': '312px' }}
        onClick={() => inBackground(signOut())}
      >
        <CloseCircleOutline fontSize={20} aria-label={t('debug.logout')} />
      </FloatingBubble>
    </>
  )
}
