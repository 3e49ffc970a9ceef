import type { PayMethod } from '@numisma/contracts/payment'
import { formatFen } from '@numisma/contracts/money'
import { List, Radio } from 'antd-mobile'
import { BankcardOutline, MessageFill, PayCircleOutline } from 'antd-mobile-icons'
import type { ReactNode } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'react-router'
import styles from './pay-method-list.module.css'

export interface PayMethodListProps {
  value: PayMethod
  onChange: (method: PayMethod) => void
  /** The balance now, and whether it covers this payment (unknown while loading). */
  balance: number | undefined
  balanceCovers: boolean
  /** Messaging-app pay is offered here (always inside the app; the sandbox elsewhere). */
  wechatOffered: boolean
  /** Where a low balance is topped up, coming back to this payment. */
  topUpHref: string
}

/**
 * 余额 / 微信支付 / 银行汇款 as antd-mobile radios in a list. The balance is offered only when it
 * covers the payment; otherwise its row says how much there is and leads to topping up (not a
 * disabled list item: that would make the link dead too).
 */
export function PayMethodList({
  value,
  onChange,
  balance,
  balanceCovers,
  wechatOffered,
  topUpHref,
}: PayMethodListProps) {
  const { t } = useTranslation()
  const row = (
    method: PayMethod,
    icon: ReactNode,
    description: ReactNode,
    disabled = false,
  ): ReactNode => (
    <List.Item
      key={method}
      prefix={icon}
      description={description}
      extra={<Radio value={method} disabled={disabled} aria-label={t(`pay.method.${method}`)} />}
      arrowIcon={false}
      className={disabled ? styles.unavailable : undefined}
      onClick={disabled ? undefined : () => onChange(method)}
      data-testid={`pay-method-${method}`}
    >
      <span className={styles.name}>{t(`pay.method.${method}`)}</span>
    </List.Item>
  )

  return (
    <Radio.Group value={value} onChange={(next) => onChange(next as PayMethod)}>
      <List className={styles.list} header={t('pay.methodTitle')} mode="card">
        {row(
          'balance',
          <PayCircleOutline className={`${styles.icon} ${styles.balance}`} />,
          balance === undefined ? (
            t('common.loading')
          ) : balanceCovers ? (
            t('pay.balanceLeft', { amount: `¥${formatFen(balance)}` })
          ) : (
            <span className={styles.low}>
              {t('pay.balanceLow', { amount: `¥${formatFen(balance)}` })}
              <Link
                to={topUpHref}
                className={styles.topUp}
                data-testid="pay-top-up"
                onClick={(event) => event.stopPropagation()}
              >
                {t('pay.topUp')}
              </Link>
            </span>
          ),
          balance === undefined || !balanceCovers,
        )}
        {wechatOffered
          ? row(
              'wechat',
              <MessageFill className={`${styles.icon} ${styles.wechat}`} />,
              t('pay.wechatHint'),
            )
          : null}
        {row(
          'remittance',
          <BankcardOutline className={`${styles.icon} ${styles.remittance}`} />,
          t('pay.remittanceHint'),
        )}
      </List>
    </Radio.Group>
  )
}
