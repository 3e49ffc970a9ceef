import { Alert, Button, Card, Form, Input, Typography } from 'antd'
import { staffErrorMessage } from './staff-api'
import styles from './sign-in-page.module.css'
import { useStaffLogin } from './staff-queries'
import { TEXT } from './texts'

interface SignInForm {
  username: string
  password: string
}

/** Staff sign-in (POST /svc/main/admin/login): the session cookie is set by the answer. */
export function SignInPage() {
  const login = useStaffLogin()
  const error = login.error
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <Typography.Title level={4} className={styles.title}>
          {TEXT.console}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{TEXT.signInTitle}</Typography.Paragraph>
        {error ? (
          <Alert
            type="error"
            showIcon
            className={styles.error}
            message={staffErrorMessage(error, TEXT.signInFailed)}
            data-testid="staff-sign-in-error"
          />
        ) : null}
        <Form<SignInForm>
          layout="vertical"
          requiredMark={false}
          onFinish={(values) => login.mutate(values)}
        >
          <Form.Item
            name="username"
            label={TEXT.username}
            rules={[{ required: true, message: TEXT.usernameRequired }]}
          >
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item
            name="password"
            label={TEXT.password}
            rules={[{ required: true, message: TEXT.passwordRequired }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={login.isPending}>
            {TEXT.signIn}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
