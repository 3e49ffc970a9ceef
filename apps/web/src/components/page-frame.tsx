import { useLayoutEffect, useRef, type ReactNode } from 'react'
import { NavBar } from 'antd-mobile'
import { useKeepAliveContext } from 'keepalive-for-react'
import { useTranslation } from '../lib/i18n'
import { useNavigate } from 'react-router'
import { AppTabBar } from './app-tab-bar'
import { usePageMeta } from './page-meta-context'
import styles from './page-frame.module.css'
import { inBackground } from '../lib/background'
import { releaseFirstScreen } from '../lib/first-screen-paint'

export interface PageFrameProps {
  children: ReactNode
  /** Replaces the NavBar (e.g. the home page's brand header). */
  header?: ReactNode
  right?: ReactNode
  /** Fixed content above the tab bar / safe area (e.g. a submit button). */
  footer?: ReactNode
  /** Added to the footer's own class (e.g. the lot page's shadow above its bid bar). */
  footerClassName?: string
  bodyClassName?: string
}

/**
 * The frame every route renders: NavBar with the route title (a back arrow except on tab roots),
 * a scrolling body whose position survives keep-alive, and the tab bar on tab roots.
 */
export function PageFrame({
  children,
  header,
  right,
  footer,
  footerClassName,
  bodyClassName,
}: PageFrameProps) {
  const meta = usePageMeta()
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const body = useRef<HTMLDivElement>(null)
  const scrollTop = useRef(0)
  const { active } = useKeepAliveContext()
  const title = i18n.language === 'en' ? meta.title.en : meta.title.zh

  // A kept-alive page is detached from the document while away, which resets its scroll offset:
  // remember it while still attached (the cleanup runs as the page turns inactive) and put it
  // back once the page is attached again.
  // The server's rendering of this page's first screen (ADR 026 §9) goes as this one is committed;
  // where the reader had scrolled it to, this page goes too (the effect below puts it back).
  useLayoutEffect(() => {
    const offset = releaseFirstScreen()
    if (offset) scrollTop.current = offset
  }, [])

  useLayoutEffect(() => {
    const el = body.current
    if (!active || !el) return
    const frame = requestAnimationFrame(() => {
      el.scrollTop = scrollTop.current
    })
    return () => {
      cancelAnimationFrame(frame)
      scrollTop.current = el.scrollTop
    }
  }, [active])

  const back = (): void => {
    if (window.history.length > 1) inBackground(navigate(-1))
    else inBackground(navigate('/', { replace: true }))
  }

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        {header ?? (
          <NavBar
            back={meta.tab ? null : ''}
            backIcon={!meta.tab}
            onBack={back}
            // antd-mobile's back area is a role="button" with only an icon: name it for screen
            // readers (its own `back` text is aria-hidden).
            left={meta.tab ? null : <span className={styles.srOnly}>{t('common.back')}</span>}
            right={right}
          >
            {title}
          </NavBar>
        )}
      </header>
      <main
        ref={body}
        className={bodyClassName ? `${styles.body} ${bodyClassName}` : styles.body}
        data-testid="page-body"
      >
        {children}
      </main>
      {footer ? (
        <div className={footerClassName ? `${styles.footer} ${footerClassName}` : styles.footer}>
          {footer}
        </div>
      ) : null}
      {meta.tab ? <AppTabBar /> : null}
    </div>
  )
}
