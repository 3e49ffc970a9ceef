import { Button, Layout, Result, Spin, Typography } from 'antd'
import { inBackground } from '../lib/background'
import { ChatDeskPage } from './chat-desk-page'
import styles from './admin-app.module.css'
import { SignInPage } from './sign-in-page'
import { useStaffLogout, useStaffSession } from './staff-queries'
import { TEXT } from './texts'

/**
 * The operator console at /admin (ADR 020): the sign-in form without a staff session, else the
 * console's frame with its one page so far, the chat desk (issue 12 adds the others).
 */
export function AdminApp() {
  const session = useStaffSession()
  const logout = useStaffLogout()
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
    <Layout className={styles.layout}>
      <Layout.Header className={styles.header}>
        <Typography.Text strong className={styles.brand}>
          {TEXT.console}
        </Typography.Text>
        <Typography.Text className={styles.section}>{TEXT.desk}</Typography.Text>
        <span className={styles.spacer} />
        <Typography.Text className={styles.user} data-testid="staff-username">
          {session.data.username}
        </Typography.Text>
        <Button size="small" onClick={() => logout.mutate()} loading={logout.isPending}>
          {TEXT.signOut}
        </Button>
      </Layout.Header>
      <Layout.Content className={styles.content}>
        <ChatDeskPage />
      </Layout.Content>
    </Layout>
  )
}
