import { Button } from 'antd-mobile'
import { ClockCircleFill, ExclamationCircleFill } from 'antd-mobile-icons'
import { Component, useLayoutEffect, type ErrorInfo, type ReactNode } from 'react'
import { useTranslation } from '../lib/i18n'
import { useLocation } from 'react-router'
import { releaseFirstScreen } from '../lib/first-screen-paint'
import styles from './route-error.module.css'

/**
 * A page that failed to load (usually its chunk, on a lost connection): say so, offer a retry.
 * Part of the first load, so it has to work offline. Drawn as antd-mobile's Result draws it, with
 * its icon and no more: the component brings all five of its status icons (issue 13).
 */
export function RouteError() {
  const { t } = useTranslation()
  // In place of a page, the error takes the server's first screen away too (ADR 026 §9).
  useLayoutEffect(() => {
    releaseFirstScreen()
  }, [])
  const offline = !navigator.onLine
  return (
    <div className="route-error">
      <div className={styles.result} role="alert">
        {offline ? (
          <ClockCircleFill className={`${styles.icon} ${styles.waiting}`} aria-hidden />
        ) : (
          <ExclamationCircleFill className={`${styles.icon} ${styles.warning}`} aria-hidden />
        )}
        <h1 className={styles.title}>{offline ? t('errors.offline') : t('errors.pageFailed')}</h1>
      </div>
      <div className={styles.retry}>
        <Button block color="primary" onClick={() => window.location.reload()}>
          {t('common.retry')}
        </Button>
      </div>
    </div>
  )
}

/**
 * The shell's error boundary, the data router's `errorElement` of before: a page that fails to
 * render or to load its chunk shows RouteError in place of the shell. Going to another page (the
 * back arrow, a link in the tab bar's place) tries again, as the data router cleared its error.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { key } = useLocation()
  return <ErrorBoundary resetKey={key}>{children}</ErrorBoundary>
}

interface BoundaryProps {
  resetKey: string
  children: ReactNode
}

interface BoundaryState {
  failed: boolean
  /** The location the state is for: a new one clears the failure. */
  key: string
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, key: this.props.resetKey }

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true }
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState) {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey }
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack)
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children
  }
}
