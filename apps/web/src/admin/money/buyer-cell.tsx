import { Typography } from 'antd'
import { Link } from 'react-router'
import { useMoneyUser } from './queries'
import styles from './buyer-cell.module.css'

/** Who a notice or withdrawal is from: name and mobile, linking to their accounts. */
export function BuyerCell({ userId }: { userId: number }) {
  const user = useMoneyUser({ id: userId })
  return (
    <Link className={styles.buyer} to={`/admin/money/accounts?id=${userId}`}>
      <span>{user.data?.display ?? `#${userId}`}</span>
      <Typography.Text type="secondary" className={styles.mobile}>
        {user.data?.mobile ?? ''}
      </Typography.Text>
    </Link>
  )
}
