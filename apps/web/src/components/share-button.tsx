import type { ShareInfo } from '@numisma/contracts/share'
import { Mask } from 'antd-mobile'
import { UploadOutline } from 'antd-mobile-icons'
import { useState } from 'react'
import { useTranslation } from '../lib/i18n'
import { inBackground } from '../lib/background'
import { currentInAppEnvironment } from '../lib/in-app/environment'
import { browserCopyDeps, copyText, shareActionFor } from '../lib/share/share-action'
import { useCurrentShareInfo } from '../lib/share/share-store'
import { showToast } from '../lib/toast'
import styles from './share-button.module.css'

/**
 * The 分享 button of the item, mall item and special pages (in the NavBar's right slot). Shares
 * the page's share info the way the environment allows (lib/share/share-action).
 */
export function ShareButton() {
  const { t } = useTranslation()
  const info = useCurrentShareInfo()
  const [hint, setHint] = useState(false)

  const copyLink = async () => {
    const copied = await copyText(info.link, browserCopyDeps())
    showToast(copied ? t('share.copied') : t('share.copyFailed', { link: info.link }))
  }

  const share = async (shared: ShareInfo) => {
    const canWebShare = typeof navigator.share === 'function'
    switch (shareActionFor(currentInAppEnvironment(), canWebShare)) {
      case 'native':
        try {
          // Undefined when the app injected no bridge (an old build): copying still shares. The
          // bridge client loads here, only in the app, to keep it out of everyone's first load.
          const { nativeShare } = await import('../lib/in-app/native-bridge')
          if ((await nativeShare(shared)) === undefined) await copyLink()
        } catch {
          await copyLink()
        }
        return
      case 'menu-hint':
        setHint(true)
        return
      case 'system-sheet':
        try {
          await navigator.share({ title: shared.title, text: shared.desc, url: shared.link })
        } catch (error) {
          // Closing the sheet is not a failure; a refusal (no user gesture, policy) copies instead.
          if (!(error instanceof DOMException && error.name === 'AbortError')) await copyLink()
        }
        return
      case 'copy':
        await copyLink()
    }
  }

  return (
    <>
      <button
        type="button"
        className={styles.button}
        data-testid="share-button"
        onClick={() => inBackground(share(info))}
      >
        <UploadOutline aria-hidden />
        <span>{t('share.button')}</span>
      </button>
      <Mask visible={hint} onMaskClick={() => setHint(false)} opacity={0.75}>
        <div
          className={styles.hint}
          role="dialog"
          aria-label={t('share.hint')}
          data-testid="share-hint"
          onClick={() => setHint(false)}
        >
          <svg className={styles.arrow} viewBox="0 0 80 100" aria-hidden>
            <path d="M10 95 C 20 50, 45 25, 70 12" />
            <path d="M52 8 L 72 10 L 66 30" />
          </svg>
          <p className={styles.hintText}>{t('share.hint')}</p>
          <span className={styles.hintClose}>{t('share.hintClose')}</span>
        </div>
      </Mask>
    </>
  )
}
