import { COUPON_HISTORY_STATES } from '@numisma/contracts/mall'
import { Button, PullToRefresh, Skeleton, Tabs } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { inBackground } from '../../../lib/background'
import { useCouponHistory, type CouponHistoryState } from '../../../lib/orders/get-coupon-history'
import { CouponRecord, MALL_HREF } from '../components/coupon-record'
import styles from './my-coupon-page.module.css'

const parseTab = (value: string | null): CouponHistoryState =>
  COUPON_HISTORY_STATES.find((state) => state === value) ?? 'usable'

/**
 * /myCoupon?tab=usable|used|expired: the coupons the caller has received. 已使用 also holds the
 * ones an unpaid order has locked, which come back to 可使用 if that order is cancelled.
 */
export function MyCouponPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params, setParams] = useSearchParams()
  const tab = parseTab(params.get('tab'))
  const list = useCouponHistory(tab)

  return (
    <PageFrame>
      <Tabs
        className={styles.tabs}
        activeKey={tab}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
      >
        {COUPON_HISTORY_STATES.map((key) => (
          <Tabs.Tab
            key={key}
            title={<span data-testid={`coupon-tab-${key}`}>{t(`myCoupon.tabs.${key}`)}</span>}
          />
        ))}
      </Tabs>
      <PullToRefresh
        onRefresh={async () => {
          await list.refetch()
        }}
      >
        {list.isPending ? (
          <div className={styles.list} aria-hidden="true">
            <Skeleton className={styles.skeleton} animated />
            <Skeleton className={styles.skeleton} animated />
          </div>
        ) : list.data === undefined ? (
          <LoadFailed onRetry={() => list.refetch()} />
        ) : list.data.length === 0 ? (
          <EmptyState description={t(`myCoupon.empty.${tab}`)}>
            {tab === 'usable' ? (
              <Button
                size="small"
                color="primary"
                fill="outline"
                onClick={() => inBackground(navigate(MALL_HREF))}
              >
                {t('myCoupon.toMall')}
              </Button>
            ) : null}
          </EmptyState>
        ) : (
          <div className={styles.list} data-testid="coupon-list" data-tab={tab}>
            {list.data.map((record) => (
              <CouponRecord key={record.userCouponId} record={record} />
            ))}
          </div>
        )}
      </PullToRefresh>
    </PageFrame>
  )
}
