import { ADDRESS_LIMIT, type Address } from '@numisma/contracts/address'
import { Button, Dialog } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { PageLoading } from '../../../components/page-loading'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { flowQuery, pickTarget, readAddressFlow } from '../../../lib/address/address-flow'
import {
  useAddresses,
  useDeleteAddress,
  useSetDefaultAddress,
} from '../../../lib/address/addresses'
import { inBackground } from '../../../lib/background'
import { showSuccess } from '../../../lib/toast'
import { AddressCard } from '../components/address-card'
import styles from './address-list-page.module.css'

/**
 * /address/list: the caller's addresses, the default first; make one the default, edit, delete or
 * add one. Opened with `?select=1&from=…` (the delivery application), tapping an address returns
 * to the caller with its `addressId`.
 */
export function AddressListPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const flow = readAddressFlow(params)
  const addresses = useAddresses()
  const setDefault = useSetDefaultAddress()
  const remove = useDeleteAddress()
  const list = addresses.data ?? []
  const full = list.length >= ADDRESS_LIMIT
  const busy = setDefault.isPending || remove.isPending

  const makeDefault = async (address: Address) => {
    try {
      await setDefault.mutateAsync(address.id)
      showSuccess(t('address.defaultSet'))
    } catch {
      // request() has toasted the reason; the list is refreshed by the hook.
    }
  }

  const confirmDelete = async (address: Address) => {
    const ok = await Dialog.confirm({
      content: t('address.deleteConfirm'),
      confirmText: t('address.delete'),
      cancelText: t('common.cancel'),
    })
    if (!ok) return
    try {
      await remove.mutateAsync(address.id)
      showSuccess(t('address.deleted'))
    } catch {
      // Toasted by request().
    }
  }

  const footer = (
    <div className={styles.footer}>
      {full && (
        <p className={styles.limit}>{t('address.limitReached', { count: ADDRESS_LIMIT })}</p>
      )}
      <Button
        block
        color="primary"
        shape="rounded"
        disabled={full || !addresses.data}
        onClick={() => inBackground(navigate(`/address/edit${flowQuery(flow)}`))}
        data-testid="address-add"
      >
        {t('address.add')}
      </Button>
    </div>
  )

  return (
    <PageFrame bodyClassName={styles.body} footer={footer}>
      {addresses.isError && !addresses.data ? (
        <LoadFailed onRetry={() => addresses.refetch()} />
      ) : !addresses.data ? (
        <PageLoading />
      ) : list.length === 0 ? (
        <EmptyState title={t('address.empty')} description={t('address.emptyHint')} />
      ) : (
        <>
          {flow.select && <p className={styles.hint}>{t('address.selectHint')}</p>}
          <div className={styles.list} data-testid="address-list">
            {list.map((address) => {
              const target = pickTarget(flow, address.id)
              return (
                <AddressCard
                  key={address.id}
                  address={address}
                  busy={busy}
                  onPick={
                    target === null
                      ? undefined
                      : () => inBackground(navigate(target, { replace: true }))
                  }
                  onSetDefault={() => inBackground(makeDefault(address))}
                  onEdit={() =>
                    inBackground(navigate(`/address/edit${flowQuery(flow, { id: address.id })}`))
                  }
                  onDelete={() => inBackground(confirmDelete(address))}
                />
              )
            })}
          </div>
        </>
      )}
    </PageFrame>
  )
}
