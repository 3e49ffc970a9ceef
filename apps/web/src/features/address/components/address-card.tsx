import type { Address } from '@numisma/contracts/address'
import { Checkbox, Tag } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import styles from './address-card.module.css'

export interface AddressCardProps {
  address: Address
  /** Tapping the address itself picks it (select mode). */
  onPick?: () => void
  onSetDefault: () => void
  onEdit: () => void
  onDelete: () => void
  busy: boolean
}

/** The region line: province and city in China, the country elsewhere (and for China's others). */
export function regionLine(address: Address): string {
  const parts =
    address.countryId === 'CN'
      ? [address.provinceName, address.cityName]
      : [address.countryName, address.provinceName, address.cityName]
  return parts.filter((part) => part).join(' ')
}

/** One saved address: who and where, the default tag, and its actions. */
export function AddressCard({
  address,
  onPick,
  onSetDefault,
  onEdit,
  onDelete,
  busy,
}: AddressCardProps) {
  const { t } = useTranslation()
  const main = (
    <>
      <div className={styles.who}>
        <span className={styles.name}>{address.name}</span>
        <span className={styles.mobile}>{address.mobile}</span>
        {address.isDefault && (
          <Tag color="primary" fill="outline" className={styles.tag} data-testid="address-default">
            {t('address.isDefaultTag')}
          </Tag>
        )}
      </div>
      <div className={styles.where}>
        <span className={styles.region}>{regionLine(address)}</span> {address.detail}
      </div>
    </>
  )
  return (
    <article className={styles.card} data-testid="address-card" data-address-id={address.id}>
      {onPick ? (
        <button type="button" className={styles.main} onClick={onPick} data-testid="address-pick">
          {main}
        </button>
      ) : (
        <div className={styles.main}>{main}</div>
      )}
      <div className={styles.actions}>
        <Checkbox
          checked={address.isDefault}
          disabled={busy}
          className={styles.default}
          onChange={(checked) => {
            // The default cannot be unticked: a user with addresses always has one.
            if (checked && !address.isDefault) onSetDefault()
          }}
          data-testid="address-set-default"
        >
          {address.isDefault ? t('address.isDefaultTag') : t('address.setDefault')}
        </Checkbox>
        <span className={styles.buttons}>
          <button type="button" onClick={onEdit} data-testid="address-edit">
            {t('address.edit')}
          </button>
          <button type="button" onClick={onDelete} disabled={busy} data-testid="address-delete">
            {t('address.delete')}
          </button>
        </span>
      </div>
    </article>
  )
}
