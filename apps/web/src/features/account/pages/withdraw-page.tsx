import { DetailSkeleton } from '../../../components/detail-skeleton'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { useUserStatistics } from '../api/get-user-statistics'
import { WithdrawForm } from '../components/withdraw-form'
import { WithdrawList } from '../components/withdraw-list'
import styles from './withdraw-page.module.css'

/**
 * /account/withdraw: ask for free balance or free deposit to be paid to a bank account, and see
 * every request's status (DESIGN §9 "Money"; issue 9 item 7).
 */
export function WithdrawPage() {
  const user = useUserStatistics()
  return (
    <PageFrame bodyClassName={styles.body}>
      {user.data ? (
        // Keyed by the user: a form never carries one account's figures over to another's.
        <WithdrawForm key={user.data.userId} user={user.data} />
      ) : user.isError ? (
        <LoadFailed onRetry={() => user.refetch()} />
      ) : (
        <DetailSkeleton />
      )}
      <WithdrawList />
    </PageFrame>
  )
}
