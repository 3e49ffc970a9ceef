import type { CSSProperties } from 'react'
import { Button } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { inBackground } from '../../../lib/background'
import { showSuccess, showToast } from '../../../lib/toast'
import { copyText } from './bank-copy'

/** On the dark bank card the outline is drawn in the card's gold. */
const ON_DARK = {
  '--text-color': '#f6dca8',
  '--border-color': '#f6dca8',
  '--background-color': 'transparent',
} as CSSProperties

export interface BankCopyButtonProps {
  text: string
  testId?: string
  onDark?: boolean
}

/** A small 复制 button beside an account number or a transfer note; toasts 已复制. */
export function BankCopyButton({ text, testId, onDark = false }: BankCopyButtonProps) {
  const { t } = useTranslation()
  const copy = async (): Promise<void> => {
    if (await copyText(text)) showSuccess(t('bank.copied'))
    else showToast(t('bank.copyFailed'))
  }
  return (
    <Button
      size="mini"
      color="primary"
      fill="outline"
      shape="rounded"
      style={onDark ? ON_DARK : undefined}
      data-testid={testId}
      onClick={() => inBackground(copy())}
    >
      {t('bank.copy')}
    </Button>
  )
}
