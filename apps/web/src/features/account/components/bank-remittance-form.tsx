import { useEffect, useRef, useState } from 'react'
import type { CompanyBank, Remittance, RemittanceRequest } from '@numisma/contracts/account'
import { formatFen } from '@numisma/contracts/money'
import { randomUuid } from '@numisma/contracts/signing-headers'
import { Button, DatePicker, Form, Input, Picker, type ImageUploadItem } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { inBackground } from '../../../lib/background'
import { parseYuan, yuanText } from '../../../lib/finance/amount'
import { answered, nextAttempt, type Attempt } from '../../../lib/finance/attempt'
import {
  chinaToday,
  dayToPickerDate,
  earliestRemitDay,
  pickerDateToDay,
} from '../../../lib/finance/remit-date'
import { useSubmitRemittance } from '../../../lib/finance/remittances'
import { useWaitPayStatistics } from '../../../lib/finance/wait-pay-statistics'
import { BankReceiptUpload } from './bank-receipt-upload'
import styles from './bank-remittance-form.module.css'

interface RemitValues {
  /** The picker's value: the chosen account's id as text. */
  bank: string[]
  amount: string
  payerName: string
  payerBank: string
  remittedOn: Date
  receipt: ImageUploadItem[]
}

export interface BankRemittanceFormProps {
  banks: CompanyBank[]
  bankId: number | undefined
  orderIds: number[]
  onSent: (remittance: Remittance) => void
}

const tail = (accountNo: string) => accountNo.slice(-4)

/**
 * The remittance notice: which of our accounts, how much (the orders' total to start with), who
 * paid from which bank on which day, and optionally a photo of the slip.
 */
export function BankRemittanceForm({ banks, bankId, orderIds, onSent }: BankRemittanceFormProps) {
  const { t } = useTranslation()
  const [form] = Form.useForm<RemitValues>()
  const submit = useSubmitRemittance()
  const due = useWaitPayStatistics(orderIds)
  const [uploading, setUploading] = useState(false)
  const attempt = useRef<Attempt | null>(null)
  const sending = useRef(false)
  // The day the page opened: a form left open over midnight still offers that day as the latest.
  const [today] = useState(() => chinaToday(Date.now()))
  const initialBank =
    banks.find((b) => b.id === bankId) ?? (banks.length === 1 ? banks[0] : undefined)

  // The orders' total fills the amount once it arrives, unless the collector typed one already.
  const total = due.data?.total
  useEffect(() => {
    if (total !== undefined && !form.isFieldTouched('amount')) {
      form.setFieldValue('amount', yuanText(total))
    }
  }, [form, total])

  const send = async (values: RemitValues): Promise<void> => {
    if (sending.current) return
    const amount = parseYuan(values.amount)
    const companyBankId = Number(values.bank[0])
    if (amount === undefined || !companyBankId) return
    sending.current = true
    const notice: RemittanceRequest = {
      companyBankId,
      amount,
      payerName: values.payerName.trim(),
      payerBank: values.payerBank.trim(),
      remittedOn: pickerDateToDay(values.remittedOn),
      orderIds,
      ...(values.receipt[0] ? { receipt: values.receipt[0].url } : {}),
    }
    const current = nextAttempt(attempt.current, notice, randomUuid)
    attempt.current = current
    try {
      const sent = await submit.mutateAsync({ notice, idempotencyKey: current.key })
      attempt.current = null
      onSent(sent)
    } catch (error) {
      // request() has toasted the reason. Unanswered, the key stays: sending again is a retry.
      if (answered(error)) attempt.current = null
    } finally {
      sending.current = false
    }
  }

  const columns = [
    banks.map((b) => ({
      label: `${b.bankName} ${t('remit.accountTail', { tail: tail(b.accountNo) })}`,
      value: String(b.id),
    })),
  ]

  return (
    <Form
      form={form}
      layout="horizontal"
      mode="card"
      className={styles.form}
      data-testid="remittance-form"
      initialValues={{
        bank: initialBank ? [String(initialBank.id)] : [],
        amount: '',
        payerName: '',
        payerBank: '',
        remittedOn: dayToPickerDate(today),
        receipt: [],
      }}
      onFinish={(values: RemitValues) => inBackground(send(values))}
      footer={
        <Button
          block
          type="submit"
          color="primary"
          shape="rounded"
          className={styles.submit}
          loading={submit.isPending}
          disabled={uploading}
          data-testid="remittance-submit"
        >
          {t('remit.submit')}
        </Button>
      }
    >
      <Form.Item
        name="bank"
        label={t('remit.account')}
        trigger="onConfirm"
        arrowIcon
        rules={[{ required: true, type: 'array', min: 1, message: t('remit.chooseAccount') }]}
        onClick={(_event, picker: { current: { open(): void } | null }) => picker.current?.open()}
      >
        <Picker columns={columns} title={t('remit.chooseAccount')}>
          {(items) =>
            items[0] ? (
              <span data-testid="remittance-bank">{items[0].label}</span>
            ) : (
              <span className={styles.placeholder}>{t('remit.chooseAccount')}</span>
            )
          }
        </Picker>
      </Form.Item>
      {orderIds.length > 0 ? (
        <Form.Item label={t('remit.forOrders')}>
          <span data-testid="remittance-orders">{orderIds.join('、')}</span>
        </Form.Item>
      ) : null}
      <Form.Item
        name="amount"
        label={t('remit.amount')}
        required
        description={
          total !== undefined ? (
            <span data-testid="remittance-due" data-fen={total}>
              {t('remit.ordersTotal', { amount: `¥${formatFen(total)}` })}
            </span>
          ) : undefined
        }
        rules={[
          {
            validator: async (_rule, value: string) => {
              if (parseYuan(value) === undefined) throw new Error(t('remit.amountInvalid'))
            },
          },
        ]}
      >
        <Input
          inputMode="decimal"
          placeholder={t('remit.amountPlaceholder')}
          clearable
          data-testid="remittance-amount"
        />
      </Form.Item>
      <Form.Item
        name="payerName"
        label={t('remit.payerName')}
        rules={[
          { required: true, whitespace: true, max: 50, message: t('remit.payerNameRequired') },
        ]}
      >
        <Input
          placeholder={t('remit.payerNamePlaceholder')}
          maxLength={50}
          data-testid="remittance-payer-name"
        />
      </Form.Item>
      <Form.Item
        name="payerBank"
        label={t('remit.payerBank')}
        rules={[
          { required: true, whitespace: true, max: 50, message: t('remit.payerBankRequired') },
        ]}
      >
        <Input
          placeholder={t('remit.payerBankPlaceholder')}
          maxLength={50}
          data-testid="remittance-payer-bank"
        />
      </Form.Item>
      <Form.Item
        name="remittedOn"
        label={t('remit.date')}
        trigger="onConfirm"
        arrowIcon
        rules={[{ required: true, message: t('remit.dateRequired') }]}
        onClick={(_event, picker: { current: { open(): void } | null }) => picker.current?.open()}
      >
        <DatePicker
          title={t('remit.date')}
          min={dayToPickerDate(earliestRemitDay(today))}
          max={dayToPickerDate(today)}
        >
          {(value) =>
            value ? (
              <span data-testid="remittance-date">{pickerDateToDay(value)}</span>
            ) : (
              <span className={styles.placeholder}>{t('remit.datePlaceholder')}</span>
            )
          }
        </DatePicker>
      </Form.Item>
      <Form.Item
        name="receipt"
        label={t('remit.receipt')}
        layout="vertical"
        description={t('remit.receiptHint')}
      >
        <BankReceiptUpload onBusyChange={setUploading} />
      </Form.Item>
    </Form>
  )
}
