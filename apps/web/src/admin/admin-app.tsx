import { Button, Result, Spin } from 'antd'
import { BrowserRouter } from 'react-router'
import { inBackground } from '../lib/background'
import styles from './admin-app.module.css'
import { ConsoleLayout } from './console/console-layout'
import { SignInPage } from './sign-in-page'
import { useStaffSession } from './staff-queries'
import { TEXT } from './texts'

/**
 * The operator console at /admin (ADR 020, 021): the sign-in form without a staff session, else
 * the console's frame with the pages the staff member's roles open.
 */
export function AdminApp() {
  const session = useStaffSession()
  if (session.isPending) {
    return (
      <div className={styles.center}>
        <Spin size="large" />
      </div>
    )
  }
  if (session.isError) {
    return (
      <Result
        status="error"
        title={TEXT.loadFailed}
        extra={<Button onClick={() => inBackground(session.refetch())}>{TEXT.reload}</Button>}
      />
    )
  }
  if (session.data === null) return <SignInPage />
  return (
    <BrowserRouter basename="/admin">
      <ConsoleLayout staff={session.data} />
    </BrowserRouter>
  )
}
