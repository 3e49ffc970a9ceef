import { useRef, useState } from 'react'
import type { WithdrawalRequest } from '@numisma/contracts/account'
import { errorText } from '@numisma/contracts/errors'
import { formatFen } from '@numisma/contracts/money'
import { randomUuid } from '@numisma/contracts/signing-headers'
import type { UserStatistics } from '@numisma/contracts/user'
import { Button, Dialog, Form, Input, Selector } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate } from 'react-router'
import { PayPasswordPopup, type PasswordPopupState } from '../../../components/pay-password-popup'
import { usePayPasswordSettings } from '../../../lib/account/pay-password'
import { inBackground } from '../../../lib/background'
import { parseYuan, yuanText } from '../../../lib/finance/amount'
import { answered, nextAttempt, type Attempt } from '../../../lib/finance/attempt'
import { withdrawable, type WithdrawalSource } from '../../../lib/finance/withdrawable'
import { useRequestWithdrawal } from '../../../lib/finance/withdrawals'
import { payErrorAction } from '../../../lib/payment/pay-error'
import { showSuccess } from '../../../lib/toast'
import { useLocale } from '../../../lib/use-locale'
import styles from './withdraw-form.module.css'

interface WithdrawValues {
  source: WithdrawalSource[]
  amount: string
  bankName: string
  accountName: string
  accountNo: string
}

const ACCOUNT_NO = /^\d{8,30}$/
const yuan = (fen: number) => `¥${formatFen(fen)}`
const HERE = '/account/withdraw'
const SET_PASSWORD_HREF = `/account/setPayPwd?redirect=${encodeURIComponent(HERE)}`

/** Whether payment (and so withdrawing) is locked now, by the settings' lock time. */
const lockedNow = (until: string | null): boolean =>
  until !== null && Date.parse(until) > Date.now()

type PasswordSheet = { open: boolean; state: PasswordPopupState }
const CLOSED: PasswordSheet = { open: false, state: { kind: 'input' } }

/**
 * Asking for money back: from the balance or from the deposit bids leave free, at most what is
 * available, to a bank account. Confirmed, the payment password is asked in the same sheet as a
 * balance payment's (six cells over the number keyboard; without a password set, off to set one
 * and back). The amount is held at once; the list below shows what staff did.
 */
export function WithdrawForm({ user }: { user: UserStatistics }) {
  const { t } = useTranslation()
  const locale = useLocale()
  const navigate = useNavigate()
  const [form] = Form.useForm<WithdrawValues>()
  const withdraw = useRequestWithdrawal()
  const settings = usePayPasswordSettings()
  const attempt = useRef<Attempt | null>(null)
  const sending = useRef(false)
  // The confirmed request waiting for its password.
  const [confirmed, setConfirmed] = useState<WithdrawalRequest | null>(null)
  const [password, setPassword] = useState<PasswordSheet>(CLOSED)
  const available = withdrawable(user)
  const firstSource: WithdrawalSource =
    available.balance > 0 || available.deposit === 0 ? 'balance' : 'deposit'
  const source: WithdrawalSource = Form.useWatch('source', form)?.[0] ?? firstSource
  const limit = available[source]
  const held = Math.max(0, user.deposit - available.deposit)

  const send = async (values: WithdrawValues): Promise<void> => {
    const amount = parseYuan(values.amount)
    const from = values.source[0]
    if (sending.current || amount === undefined || from === undefined) return
    const withdrawal: WithdrawalRequest = {
      amount,
      source: from,
      bankName: values.bankName.trim(),
      accountName: values.accountName.trim(),
      accountNo: values.accountNo.trim(),
    }
    const ok = await Dialog.confirm({
      content: t('withdraw.confirm', {
        source: t(`withdraw.sources.${from}`),
        amount: yuan(amount),
        bank: withdrawal.bankName,
        tail: withdrawal.accountNo.slice(-4),
      }),
      confirmText: t('withdraw.submit'),
      cancelText: t('common.cancel'),
    })
    if (!ok || sending.current) return
    const account = settings.data ?? (await settings.refetch()).data
    if (!account) return
    if (!account.payPasswordSet) {
      await askToSetPassword()
      return
    }
    setConfirmed(withdrawal)
    setPassword({
      open: true,
      state: lockedNow(account.payLockedUntil)
        ? {
            kind: 'locked',
            message: errorText('PAY_LOCKED', locale),
            until: account.payLockedUntil ?? undefined,
          }
        : { kind: 'input' },
    })
  }

  const askToSetPassword = async () => {
    setPassword(CLOSED)
    const go = await Dialog.confirm({
      content: t('withdraw.passwordNotSet'),
      confirmText: t('pay.password.setNow'),
      cancelText: t('common.cancel'),
    })
    if (go) await navigate(SET_PASSWORD_HREF)
  }

  const sendWith = async (payPassword: string): Promise<void> => {
    if (sending.current || !confirmed) return
    sending.current = true
    // The key stands for the withdrawal, not the password: a retry of an unanswered request,
    // whatever is typed, is the same request (the server replays it without the password).
    const current = nextAttempt(attempt.current, confirmed, randomUuid)
    attempt.current = current
    try {
      await withdraw.mutateAsync({
        withdrawal: { ...confirmed, payPassword },
        idempotencyKey: current.key,
      })
      attempt.current = null
      setPassword(CLOSED)
      setConfirmed(null)
      showSuccess(t('withdraw.submitted'))
      // The bank account stays for the next request; the amount does not.
      form.setFieldValue('amount', '')
    } catch (error) {
      // Unanswered, the key stays: sending again is a retry.
      if (answered(error)) attempt.current = null
      await showRefusal(error)
    } finally {
      sending.current = false
    }
  }

  /** Password refusals stay in the sheet; request() has toasted any other reason. */
  const showRefusal = async (error: unknown) => {
    const action = payErrorAction(error, errorText('SUBMIT_FAILED', locale))
    switch (action.kind) {
      case 'password-wrong':
        setPassword({
          open: true,
          state: {
            kind: 'input',
            error:
              action.triesLeft === undefined
                ? action.message
                : t('pay.password.wrongLeft', { count: action.triesLeft }),
          },
        })
        return
      case 'locked':
        setPassword({
          open: true,
          state: {
            kind: 'locked',
            message: action.message,
            ...(action.until === undefined ? {} : { until: action.until }),
          },
        })
        inBackground(settings.refetch())
        return
      case 'password-not-set':
        await askToSetPassword()
        return
      case 'none':
        return
      case 'balance-low':
      case 'stale':
      case 'toast':
        // The figures were stale or the request is refused for another reason: back to the form.
        setPassword(CLOSED)
    }
  }

  const options = (['balance', 'deposit'] as const).map((value) => ({
    value,
    label: t(`withdraw.sources.${value}`),
    description: t('withdraw.available', { amount: yuan(available[value]) }),
  }))

  return (
    <>
      <Form
        form={form}
        layout="horizontal"
        mode="card"
        className={styles.form}
        data-testid="withdraw-form"
        initialValues={{
          source: [firstSource],
          amount: '',
          bankName: '',
          accountName: '',
          accountNo: '',
        }}
        onFinish={(values: WithdrawValues) => inBackground(send(values))}
        footer={
          <>
            <p className={styles.note}>{t('withdraw.note')}</p>
            <Button
              block
              type="submit"
              color="primary"
              shape="rounded"
              className={styles.submit}
              loading={withdraw.isPending}
              disabled={available.balance === 0 && available.deposit === 0}
              data-testid="withdraw-submit"
            >
              {available.balance === 0 && available.deposit === 0
                ? t('withdraw.nothing')
                : t('withdraw.submit')}
            </Button>
          </>
        }
      >
        <Form.Item
          name="source"
          label={t('withdraw.source')}
          layout="vertical"
          description={
            source === 'deposit' && held > 0
              ? t('withdraw.depositHeld', { deposit: yuan(user.deposit), held: yuan(held) })
              : undefined
          }
        >
          <Selector
            columns={2}
            options={options}
            showCheckMark={false}
            className={styles.sources}
            onChange={(value) => {
              // One source is always chosen; a typed amount is judged again against it.
              if (value.length === 0) form.setFieldValue('source', [source])
              if (form.getFieldValue('amount')) inBackground(form.validateFields(['amount']))
            }}
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('withdraw.amount')}
          required
          dependencies={['source']}
          extra={
            <button
              type="button"
              className={styles.all}
              disabled={limit === 0}
              data-testid="withdraw-all"
              onClick={() => {
                form.setFieldValue('amount', yuanText(limit))
                inBackground(form.validateFields(['amount']))
              }}
            >
              {t('withdraw.all')}
            </button>
          }
          rules={[
            {
              validator: async (_rule, value: string) => {
                const fen = parseYuan(value)
                if (fen === undefined) throw new Error(t('withdraw.amountInvalid'))
                if (fen > limit)
                  throw new Error(t('withdraw.amountTooHigh', { amount: yuan(limit) }))
              },
            },
          ]}
        >
          <Input
            inputMode="decimal"
            placeholder={t('withdraw.amountPlaceholder')}
            data-testid="withdraw-amount"
          />
        </Form.Item>
        <Form.Item
          name="bankName"
          label={t('withdraw.bankName')}
          rules={[
            { required: true, whitespace: true, max: 50, message: t('withdraw.bankNameRequired') },
          ]}
        >
          <Input
            placeholder={t('withdraw.bankNamePlaceholder')}
            maxLength={50}
            data-testid="withdraw-bank-name"
          />
        </Form.Item>
        <Form.Item
          name="accountName"
          label={t('withdraw.accountName')}
          rules={[
            {
              required: true,
              whitespace: true,
              max: 50,
              message: t('withdraw.accountNameRequired'),
            },
          ]}
        >
          <Input
            placeholder={t('withdraw.accountNamePlaceholder')}
            maxLength={50}
            data-testid="withdraw-account-name"
          />
        </Form.Item>
        <Form.Item
          name="accountNo"
          label={t('withdraw.accountNo')}
          rules={[{ pattern: ACCOUNT_NO, required: true, message: t('withdraw.accountNoInvalid') }]}
          normalize={(value: string) => value.replace(/\D/g, '')}
        >
          <Input
            inputMode="numeric"
            placeholder={t('withdraw.accountNoPlaceholder')}
            maxLength={30}
            data-testid="withdraw-account-no"
          />
        </Form.Item>
      </Form>
      <PayPasswordPopup
        visible={password.open}
        amount={confirmed?.amount ?? 0}
        state={password.state}
        busy={withdraw.isPending}
        forgotHref={SET_PASSWORD_HREF}
        amountLabel={t('withdraw.passwordAmount')}
        busyLabel={t('withdraw.sending')}
        onFill={(digits) => inBackground(sendWith(digits))}
        onClose={() => setPassword(CLOSED)}
      />
    </>
  )
}
