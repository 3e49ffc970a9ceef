import { useState } from 'react'
import { formatFen } from '@numisma/contracts/money'
import { Button, Input, Segmented } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { inBackground } from '../../../lib/background'
import { parseYuan, yuanText } from '../../../lib/finance/amount'
import styles from './recharge-transfer.module.css'

export type TransferDirection = 'toDeposit' | 'toBalance'

export interface RechargeTransferProps {
  balance: number
  /** Deposit not held by open bids and unpaid orders: what may come back to the balance. */
  freeDeposit: number
  busy: boolean
  /** Fen, positive: the direction says which way. Resolves true once moved. */
  onMove: (direction: TransferDirection, amount: number) => Promise<boolean>
}

/**
 * 余额 ⇄ 保证金: the balance moved onto the deposit (more quota at once, no fee), or free deposit
 * moved back to the balance (to pay orders with it). Each way says the most it can take.
 */
export function RechargeTransfer({ balance, freeDeposit, busy, onMove }: RechargeTransferProps) {
  const { t } = useTranslation()
  const [direction, setDirection] = useState<TransferDirection>('toDeposit')
  const [typed, setTyped] = useState('')
  const max = direction === 'toDeposit' ? balance : freeDeposit
  const amount = parseYuan(typed)
  const tooMuch = amount !== undefined && amount > max
  const invalid = typed.trim() !== '' && amount === undefined

  const submit = async () => {
    if (amount === undefined || busy) return
    if (await onMove(direction, amount)) setTyped('')
  }

  return (
    <section className={styles.card} data-testid="recharge-transfer">
      <h2 className={styles.title}>{t('recharge.transferTitle')}</h2>
      <Segmented
        block
        className={styles.segmented}
        value={direction}
        onChange={(value) => {
          setDirection(value as TransferDirection)
          setTyped('')
        }}
        options={[
          { label: t('recharge.toDeposit'), value: 'toDeposit' },
          { label: t('recharge.toBalance'), value: 'toBalance' },
        ]}
        data-testid="transfer-direction"
      />
      <div className={styles.field}>
        <span className={styles.yuan}>¥</span>
        <Input
          className={styles.input}
          value={typed}
          onChange={setTyped}
          inputMode="decimal"
          placeholder={t('recharge.transferPlaceholder')}
          aria-label={t('recharge.transferAmount')}
          data-testid="transfer-amount"
        />
        <button
          type="button"
          className={styles.all}
          disabled={max <= 0}
          onClick={() => setTyped(yuanText(max))}
        >
          {t('recharge.transferAll')}
        </button>
      </div>
      <p
        className={tooMuch || invalid ? `${styles.hint} ${styles.error}` : styles.hint}
        role={tooMuch || invalid ? 'alert' : undefined}
      >
        {invalid
          ? t('recharge.invalidAmount')
          : t(direction === 'toDeposit' ? 'recharge.maxToDeposit' : 'recharge.maxToBalance', {
              amount: `¥${formatFen(max)}`,
            })}
      </p>
      <Button
        block
        color="primary"
        fill="outline"
        shape="rounded"
        className={styles.submit}
        disabled={amount === undefined || tooMuch}
        loading={busy}
        data-testid="transfer-submit"
        onClick={() => inBackground(submit())}
      >
        {t(direction === 'toDeposit' ? 'recharge.submitToDeposit' : 'recharge.submitToBalance')}
      </Button>
    </section>
  )
}
