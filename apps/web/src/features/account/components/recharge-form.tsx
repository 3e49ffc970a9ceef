import { useState } from 'react'
import { RECHARGE_FEE_BPS } from '@numisma/domain/fees'
import { formatFen } from '@numisma/contracts/money'
import { DEFAULT_QUOTA_MULTIPLIER } from '@numisma/domain/quota'
import { Button, Input, Selector } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { parseYuan } from '../../../lib/finance/amount'
import { rechargeFee } from '../../../lib/payment/recharge'
import styles from './recharge-form.module.css'

/** The amounts offered as chips (fen); any other amount is typed. */
export const RECHARGE_PRESETS = [50_000, 100_000, 200_000, 500_000, 1_000_000] as const

type Choice = number | 'custom'

export interface RechargeFormProps {
  /** What the deposit makes of quota: deposit × this (the user's own, from their statistics). */
  multiplier: number | undefined
  busy: boolean
  onPay: (amount: number) => void
}

/**
 * 充值保证金: a preset amount or a typed one, the channel fee (RECHARGE_FEE_BPS) and what is paid
 * in all, said before paying, and the quota the amount adds.
 */
export function RechargeForm({ multiplier, busy, onPay }: RechargeFormProps) {
  const { t } = useTranslation()
  const [choice, setChoice] = useState<Choice>(RECHARGE_PRESETS[1])
  const [typed, setTyped] = useState('')
  const amount = choice === 'custom' ? parseYuan(typed) : choice
  const fee = amount === undefined ? 0 : rechargeFee(amount)
  const rate = `${(RECHARGE_FEE_BPS / 100).toFixed(1)}%`
  const money = (fen: number) => `¥${formatFen(fen)}`

  return (
    <section className={styles.card} data-testid="recharge-form">
      <h2 className={styles.title}>{t('recharge.rechargeTitle')}</h2>
      <Selector<Choice>
        className={styles.chips}
        columns={3}
        options={[
          // Whole yuan on the chips: ¥1,000 reads faster than ¥1,000.00.
          ...RECHARGE_PRESETS.map((fen) => ({ label: `¥${formatFen(fen, 0)}`, value: fen })),
          { label: t('recharge.custom'), value: 'custom' as const },
        ]}
        value={[choice]}
        onChange={(values) => {
          const [next] = values
          // A tap on the chosen chip would clear it; an amount is always chosen.
          if (next !== undefined) setChoice(next)
        }}
        data-testid="recharge-chips"
      />
      {choice === 'custom' ? (
        <div className={styles.custom}>
          <span className={styles.yuan}>¥</span>
          <Input
            className={styles.input}
            value={typed}
            onChange={setTyped}
            inputMode="decimal"
            placeholder={t('recharge.customPlaceholder')}
            aria-label={t('recharge.amount')}
            autoFocus
            data-testid="recharge-custom"
          />
        </div>
      ) : null}
      {choice === 'custom' && typed.trim() !== '' && amount === undefined ? (
        <p className={styles.error} role="alert">
          {t('recharge.invalidAmount')}
        </p>
      ) : null}
      <dl className={styles.lines}>
        <div>
          <dt>{t('recharge.amount')}</dt>
          <dd data-testid="recharge-amount" data-fen={amount ?? ''}>
            {amount === undefined ? '—' : money(amount)}
          </dd>
        </div>
        <div>
          <dt>{t('recharge.fee', { rate })}</dt>
          <dd data-testid="recharge-fee" data-fen={fee}>
            {money(fee)}
          </dd>
        </div>
        <div className={styles.totalLine}>
          <dt>{t('recharge.total')}</dt>
          <dd data-testid="recharge-total">{amount === undefined ? '—' : money(amount + fee)}</dd>
        </div>
      </dl>
      {amount !== undefined ? (
        <p className={styles.gain}>
          {t('recharge.quotaGain', {
            amount: money(amount * (multiplier ?? DEFAULT_QUOTA_MULTIPLIER)),
          })}
        </p>
      ) : null}
      <Button
        block
        color="primary"
        shape="rounded"
        className={styles.submit}
        disabled={amount === undefined}
        loading={busy}
        data-testid="recharge-submit"
        onClick={() => {
          if (amount !== undefined && !busy) onPay(amount)
        }}
      >
        {amount === undefined
          ? t('recharge.submitBare')
          : t('recharge.submit', { amount: money(amount + fee) })}
      </Button>
    </section>
  )
}
