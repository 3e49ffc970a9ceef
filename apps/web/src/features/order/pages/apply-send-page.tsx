import type { Address } from '@numisma/contracts/address'
import type { StoredOrder } from '@numisma/contracts/delivery'
import { formatChinaDate } from '@numisma/contracts/dates'
import { errorText } from '@numisma/contracts/errors'
import { formatFen } from '@numisma/contracts/money'
import { Button, NoticeBar, Selector, Switch, Tag } from 'antd-mobile'
import { RightOutline } from 'antd-mobile-icons'
import { useTranslation } from '../../../lib/i18n'
import { useLocation, useNavigate, useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { PageLoading } from '../../../components/page-loading'
import { DUE_FOOTER_BUTTON, DUE_FOOTER_FRAME, DueFooter } from '../../../components/due-footer'
import { useAddresses } from '../../../lib/address/addresses'
import { inBackground } from '../../../lib/background'
import { useDeliveryInfo, useExitBan, useKeepFee } from '../../../lib/delivery/delivery-info'
import { orderIdsParam, parseOrderIds } from '../../../lib/finance/order-ids'
import { positiveId } from '../../../lib/query-param'
import { showToast } from '../../../lib/toast'
import { useLocale } from '../../../lib/use-locale'
import {
  DELIVERY_CHOICES,
  declaredValue,
  parseDeliveryChoice,
  selectedOrders,
  storageNote,
  toggled,
  type DeliveryChoice,
} from '../components/delivery-choice'
import { FeeLines } from '../components/fee-lines'
import { OrderTickRow } from '../../../components/order-tick-row'
import { useApplyDeliveryFlow } from '../components/use-apply-delivery'
import styles from './delivery-page.module.css'

/**
 * /order/applySend (选择提货方式): the paid orders in storage, ticked to go out together, and how —
 * express to an address (default preselected; 更换 goes through /address/list?select=1 and comes
 * back with `addressId`), optional insurance at queryKeepFee's fee, the exit ban for an address
 * outside the mainland, the quote's fees paid from the balance with the payment password; or
 * self-pickup (on to /order/applySelf for the day and slot), or counter cash (unpaid orders are
 * booked at /order/cashpay). The choices live in the URL, so the trip to the address list keeps them.
 */
export function ApplySendPage() {
  const info = useDeliveryInfo()
  if (info.data)
    return <ApplySendForm stored={info.data.orders} counter={info.data.counterAddress} />
  return (
    <PageFrame bodyClassName={styles.body}>
      {info.isError ? <LoadFailed onRetry={() => info.refetch()} /> : <PageLoading />}
    </PageFrame>
  )
}

function ApplySendForm({ stored, counter }: { stored: StoredOrder[]; counter: string }) {
  const { t } = useTranslation()
  const locale = useLocale()
  const navigate = useNavigate()
  const location = useLocation()
  const [params, setParams] = useSearchParams()
  const here = `${location.pathname}${location.search}`
  const method = parseDeliveryChoice(params.get('method'))
  const insured = params.get('insured') === '1'
  const named = params.has('orderIds') ? parseOrderIds(params.get('orderIds')) : null
  const offered = stored.map((s) => s.order)
  const chosen = selectedOrders(named, offered)
  const chosenIds = chosen.map((o) => o.id)
  const value = declaredValue(chosen)

  const addresses = useAddresses()
  const addressId = positiveId(params.get('addressId') ?? '')
  const address: Address | undefined =
    addresses.data?.find((a) => a.id === addressId) ?? addresses.data?.find((a) => a.isDefault)
  const express = method === 'express'

  const quote = useDeliveryInfo(
    {
      orderIds: chosenIds,
      ...(express && address ? { addressId: address.id, insured } : {}),
    },
    chosenIds.length > 0 && method !== 'cash',
  )
  const keepFee = useKeepFee(express && chosenIds.length > 0 ? value : undefined)
  const exitBan = useExitBan(
    express && address
      ? { orderIds: chosenIds, countryId: address.countryId, provinceId: address.provinceId }
      : undefined,
  )
  const flow = useApplyDeliveryFlow(here)

  const q = quote.data?.quote ?? null
  const settling = quote.isPlaceholderData || quote.isFetching
  const banned =
    express && ((exitBan.data && !exitBan.data.allowed) || (q !== null && q.exitBanned))
  // The exit-ban call names them; until it answers (the quote may say banned first), the orders'
  // own flags do — the same rule.
  const bannedIds =
    exitBan.data?.bannedOrderIds ??
    stored.filter((s) => s.exportBanned && chosenIds.includes(s.order.id)).map((s) => s.order.id)

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params)
    for (const [key, v] of Object.entries(changes)) {
      if (v === null) next.delete(key)
      else next.set(key, v)
    }
    setParams(next, { replace: true })
  }
  const toggle = (id: number, on: boolean) =>
    update({ orderIds: toggled(chosenIds, offered, id, on).join(',') })
  const chooseAddress = () =>
    inBackground(navigate(`/address/list?select=1&from=${encodeURIComponent(here)}`))

  const submit = async () => {
    if (chosenIds.length === 0) return
    if (method === 'pickup') {
      await navigate(`/order/applySelf?${orderIdsParam(chosenIds)}`)
      return
    }
    if (!address) {
      showToast(t('delivery.addressFirst'))
      return
    }
    if (banned) {
      showToast(errorText('EXIT_BANNED', locale))
      return
    }
    if (!q || settling) return
    await flow.submit(
      { orderIds: chosenIds, method: 'express', addressId: address.id, insured },
      q.total,
    )
  }

  if (stored.length === 0 && method !== 'cash') {
    return (
      <PageFrame bodyClassName={styles.body}>
        <EmptyState description={t('empty.applySend')}>
          <Button
            size="small"
            color="primary"
            fill="outline"
            onClick={() => inBackground(navigate('/order/cashpay'))}
          >
            {t('delivery.toCashpay')}
          </Button>
          <Button
            size="small"
            fill="none"
            className={styles.link}
            onClick={() => inBackground(navigate('/order/selfSend'))}
          >
            {t('delivery.toShipments')}
          </Button>
        </EmptyState>
      </PageFrame>
    )
  }

  const footer =
    method === 'cash' ? (
      <Button
        block
        color="primary"
        shape="rounded"
        className={DUE_FOOTER_BUTTON}
        data-testid="apply-cashpay"
        onClick={() => inBackground(navigate('/order/cashpay'))}
      >
        {t('delivery.toCashpay')}
      </Button>
    ) : (
      <DueFooter
        label={t('delivery.total')}
        fen={q?.total ?? null}
        muted={chosenIds.length === 0}
        testId="apply-total"
        submit={{
          label: t(method === 'pickup' ? 'delivery.nextPickup' : 'delivery.submitExpress'),
          testId: 'apply-submit',
          disabled: chosenIds.length === 0 || (express && (!q || settling || !address || banned)),
          loading: flow.busy,
          onClick: () => inBackground(submit()),
        }}
      />
    )

  return (
    <PageFrame bodyClassName={styles.body} footer={footer} footerClassName={DUE_FOOTER_FRAME}>
      <div className={styles.content} data-testid="apply-send">
        <section className={styles.card}>
          <h2 className={styles.cardTitle}>{t('delivery.method')}</h2>
          <Selector
            className={styles.methods}
            columns={3}
            options={DELIVERY_CHOICES.map((c) => ({ label: t(`delivery.methods.${c}`), value: c }))}
            value={[method]}
            onChange={(values) => {
              const next: DeliveryChoice | undefined = values[0]
              if (next) update({ method: next })
            }}
            data-testid="apply-method"
          />
        </section>

        {method === 'cash' ? (
          <section className={styles.card}>
            <p className={styles.hint}>{t('delivery.cashExplained', { address: counter })}</p>
          </section>
        ) : (
          <>
            <section className={styles.card}>
              <h2 className={styles.cardTitle}>
                {t('delivery.orders')}
                <span className={styles.count}>
                  {t('delivery.selected', { count: chosen.length, total: stored.length })}
                </span>
              </h2>
              {stored.map((s) => (
                <OrderTickRow
                  testId="pick-order"
                  key={s.order.id}
                  order={s.order}
                  checked={chosenIds.includes(s.order.id)}
                  onToggle={(on) => toggle(s.order.id, on)}
                  note={
                    <StorageNote stored={s} banned={express && bannedIds.includes(s.order.id)} />
                  }
                />
              ))}
              {chosen.length === 0 ? (
                <p className={styles.hint}>{t('delivery.noneSelected')}</p>
              ) : null}
            </section>

            {express ? (
              <section className={styles.card}>
                <h2 className={styles.cardTitle}>{t('delivery.address')}</h2>
                {addresses.isError && !addresses.data ? (
                  <LoadFailed onRetry={() => addresses.refetch()} />
                ) : (
                  <button
                    type="button"
                    className={styles.address}
                    onClick={chooseAddress}
                    data-testid="apply-address"
                    data-address-id={address?.id ?? ''}
                  >
                    <span className={styles.addressText}>
                      {address ? (
                        <>
                          <span className={styles.addressWho}>
                            {address.name} {address.mobile}
                          </span>
                          <span>
                            {[address.countryName, address.provinceName, address.cityName]
                              .filter(Boolean)
                              .join(' ')}{' '}
                            {address.detail}
                          </span>
                        </>
                      ) : addresses.data ? (
                        <span>{t('delivery.addAddress')}</span>
                      ) : (
                        <span>{t('common.loading')}</span>
                      )}
                    </span>
                    <span className={styles.arrow}>
                      {address ? t('delivery.changeAddress') : null} <RightOutline />
                    </span>
                  </button>
                )}
                {/* Shown once it can name the orders: a banner without them says too little. */}
                {banned && bannedIds.length > 0 ? (
                  <NoticeBar
                    className={styles.notice}
                    color="alert"
                    wrap
                    data-testid="apply-exit-banned"
                    content={t('delivery.exitBanned', {
                      reason: errorText('EXIT_BANNED', locale),
                      ids: bannedIds.join('、'),
                    })}
                  />
                ) : null}
                <div className={styles.line}>
                  <span className={styles.option}>
                    <span>{t('delivery.insure')}</span>
                    {keepFee.data ? (
                      <span className={styles.optionNote} data-testid="apply-keep-fee">
                        {t('delivery.insureFee', {
                          fee: formatFen(keepFee.data.fee),
                          value: formatFen(keepFee.data.value),
                          rate: keepFee.data.rateBps / 100,
                          minimum: formatFen(keepFee.data.minimum),
                        })}
                      </span>
                    ) : null}
                  </span>
                  <Switch
                    checked={insured}
                    onChange={(on) => update({ insured: on ? '1' : null })}
                    data-testid="apply-insured"
                  />
                </div>
              </section>
            ) : (
              <section className={styles.card}>
                <p className={styles.hint}>{t('delivery.pickupExplained', { address: counter })}</p>
              </section>
            )}

            {chosen.length > 0 ? (
              <section className={styles.card} data-testid="apply-fees">
                {q ? (
                  <FeeLines
                    shippingFee={express ? q.shippingFee : null}
                    insuranceFee={express && insured ? q.insuranceFee : null}
                    storageFee={q.storageFee}
                    total={q.total}
                  />
                ) : quote.isError ? (
                  <LoadFailed onRetry={() => quote.refetch()} />
                ) : (
                  <PageLoading />
                )}
                {express && !address && q ? (
                  <p className={styles.hint}>{t('delivery.shippingNeedsAddress')}</p>
                ) : null}
              </section>
            ) : null}
            <p className={styles.hint}>{t('delivery.feesFromBalance')}</p>
          </>
        )}
      </div>
      {flow.sheet}
    </PageFrame>
  )
}

function StorageNote({ stored, banned }: { stored: StoredOrder; banned: boolean }) {
  const { t } = useTranslation()
  const note = storageNote(stored)
  return (
    <>
      {note.kind === 'fee'
        ? t('delivery.storageFee', { fee: formatFen(note.fee) })
        : t('delivery.storageFree', {
            // `until` is the instant storage starts to cost: the last free day is the one before.
            date: formatChinaDate(Date.parse(note.until) - 1, 'YYYY-MM-DD'),
          })}
      {stored.exportBanned ? (
        <Tag color={banned ? 'danger' : 'default'} fill="outline" className={styles.bannedTag}>
          {t('delivery.exportBanned')}
        </Tag>
      ) : null}
    </>
  )
}
