import { Button, Result } from 'antd'
import { Component, type ErrorInfo, type ReactNode } from 'react'
import { TEXT } from '../texts'
import { isStaleBuild } from './stale-build'

interface State {
  error: Error | null
}

/**
 * A page that fails to render or to load its code says so in the staff's words, with a reload,
 * instead of ProLayout's English "Something went wrong". After a deploy the old page's chunks
 * are gone: that one says the console was updated.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null }

  static getDerivedStateFromError(error: Error): State {
    return { error }
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack)
  }

  override render() {
    const { error } = this.state
    if (!error) return this.props.children
    const stale = isStaleBuild(error)
    return (
      <Result
        status={stale ? 'info' : 'error'}
        title={stale ? TEXT.consoleUpdated : TEXT.pageFailed}
        subTitle={stale ? TEXT.consoleUpdatedHelp : error.message}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            {TEXT.reloadPage}
          </Button>
        }
      />
    )
  }
}
