import { ImageUploader, type ImageUploadItem } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { receiptDataUrl, ReceiptUnreadable } from '../../../lib/finance/receipt-image'
import { showToast } from '../../../lib/toast'

export interface BankReceiptUploadProps {
  value?: ImageUploadItem[]
  onChange?: (items: ImageUploadItem[]) => void
  /** Whether a picture is still being scaled down (submit waits for it). */
  onBusyChange?: (busy: boolean) => void
}

/**
 * The bank slip: one picture from the camera or the album, scaled down on the phone to a JPEG
 * data URL (lib/finance/receipt-image) before it is shown or sent.
 */
export function BankReceiptUpload({ value, onChange, onBusyChange }: BankReceiptUploadProps) {
  const { t } = useTranslation()
  const upload = async (file: File): Promise<ImageUploadItem> => {
    try {
      return { url: await receiptDataUrl(file) }
    } catch (error) {
      if (error instanceof ReceiptUnreadable) showToast(t('remit.receiptUnreadable'))
      throw error
    }
  }
  return (
    <ImageUploader
      value={value ?? []}
      onChange={onChange}
      upload={upload}
      accept="image/*"
      maxCount={1}
      showFailed={false}
      onUploadQueueChange={(tasks) =>
        onBusyChange?.(tasks.some((task) => task.status === 'pending'))
      }
      data-testid="receipt-upload"
    />
  )
}
