import type { PickupSlot } from '@numisma/contracts/delivery'
import { Button, NoticeBar } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useLocation, useNavigate, useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { PageLoading } from '../../../components/page-loading'
import { DUE_FOOTER_FRAME, DueFooter } from '../../../components/due-footer'
import { inBackground } from '../../../lib/background'
import { useDeliveryInfo } from '../../../lib/delivery/delivery-info'
import { parseOrderIds } from '../../../lib/finance/order-ids'
import { isPickupSlot } from '@numisma/domain/delivery'
import { selectedOrders, slotChoice } from '../components/delivery-choice'
import { FeeLines } from '../components/fee-lines'
import { OrderBrief } from '../components/order-brief'
import { SlotPicker } from '../components/slot-picker'
import { useApplyDeliveryFlow } from '../components/use-apply-delivery'
import styles from './delivery-page.module.css'

/**
 * /order/applySelf?orderIds=1,2 (申请自提): the orders chosen on /order/applySend picked up at the
 * counter — a day among the bookable ones with places left and one of its slots, the storage the
 * orders have run up (paid from the balance with the payment password), then /account/applySuc.
 */
export function ApplySelfPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const location = useLocation()
  const [params, setParams] = useSearchParams()
  const wanted = parseOrderIds(params.get('orderIds'))
  const info = useDeliveryInfo({ orderIds: wanted }, wanted.length > 0)
  const flow = useApplyDeliveryFlow(`${location.pathname}${location.search}`)
  const rawSlot = params.get('slot') ?? ''
  const picked = slotChoice(
    info.data?.pickupDays ?? [],
    params.get('date') ?? undefined,
    isPickupSlot(rawSlot) ? rawSlot : undefined,
  )

  if (
    wanted.length === 0 ||
    (info.data &&
      selectedOrders(
        wanted,
        info.data.orders.map((s) => s.order),
      ).length === 0)
  ) {
    return (
      <PageFrame bodyClassName={styles.body}>
        <EmptyState description={t('delivery.pickupNoOrders')}>
          <Button
            size="small"
            color="primary"
            fill="outline"
            onClick={() =>
              inBackground(navigate('/order/applySend?method=pickup', { replace: true }))
            }
          >
            {t('delivery.chooseOrders')}
          </Button>
        </EmptyState>
      </PageFrame>
    )
  }
  if (!info.data) {
    return (
      <PageFrame bodyClassName={styles.body}>
        {info.isError ? <LoadFailed onRetry={() => info.refetch()} /> : <PageLoading />}
      </PageFrame>
    )
  }

  const data = info.data
  const orders = selectedOrders(
    wanted,
    data.orders.map((s) => s.order),
  )
  const orderIds = orders.map((o) => o.id)
  const q = data.quote
  const gone = wanted.length - orders.length
  const choose = (choice: { date: string; slot: PickupSlot | undefined }) => {
    const next = new URLSearchParams(params)
    next.set('date', choice.date)
    if (choice.slot) next.set('slot', choice.slot)
    else next.delete('slot')
    setParams(next, { replace: true })
  }

  const submit = async () => {
    if (!picked?.slot || !q) return
    await flow.submit(
      { orderIds, method: 'pickup', pickupDate: picked.date, pickupSlot: picked.slot },
      q.total,
    )
  }

  const footer = (
    <DueFooter
      label={t('delivery.total')}
      fen={q?.total ?? null}
      testId="apply-total"
      submit={{
        label: t('delivery.submitPickup'),
        testId: 'apply-self-submit',
        disabled: !q || !picked?.slot || info.isFetching,
        loading: flow.busy,
        onClick: () => inBackground(submit()),
      }}
    />
  )

  return (
    <PageFrame bodyClassName={styles.body} footer={footer} footerClassName={DUE_FOOTER_FRAME}>
      <div className={styles.content} data-testid="apply-self">
        {gone > 0 ? (
          <NoticeBar
            className={styles.notice}
            color="alert"
            wrap
            content={t('delivery.ordersGone', { count: gone })}
          />
        ) : null}
        <section className={styles.card}>
          <h2 className={styles.cardTitle}>
            {t('delivery.orders')}
            <span className={styles.count}>{t('delivery.count', { count: orders.length })}</span>
          </h2>
          {orders.map((order) => (
            <OrderBrief key={order.id} order={order} />
          ))}
        </section>
        <section className={styles.card}>
          <h2 className={styles.cardTitle}>{t('delivery.pickupWhen')}</h2>
          <SlotPicker
            days={data.pickupDays}
            date={picked?.date}
            slot={picked?.slot}
            onChange={choose}
          />
        </section>
        <section className={styles.card}>
          <div className={styles.line}>
            <span className={styles.label}>{t('delivery.counterAddress')}</span>
            <span className={styles.value}>{data.counterAddress}</span>
          </div>
        </section>
        <section className={styles.card} data-testid="apply-fees">
          {q ? (
            <FeeLines
              shippingFee={null}
              insuranceFee={null}
              storageFee={q.storageFee}
              total={q.total}
            />
          ) : (
            <PageLoading />
          )}
        </section>
        <p className={styles.hint}>{t('delivery.pickupNote')}</p>
      </div>
      {flow.sheet}
    </PageFrame>
  )
}
