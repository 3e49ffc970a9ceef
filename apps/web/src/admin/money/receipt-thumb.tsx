import { Image, Spin, Typography } from 'antd'
import { useReceiptUrl } from './queries'
import { MONEY_TEXT as T } from './texts'
import styles from './remittances-page.module.css'

/** A notice's receipt, fetched with the staff cookie as a blob; click for the full picture. */
export function ReceiptThumb({ id, present }: { id: number; present: boolean }) {
  const receipt = useReceiptUrl(id, present)
  if (!present) return <Typography.Text type="secondary">{T.noReceipt}</Typography.Text>
  if (!receipt.data) return <Spin size="small" />
  return (
    <Image
      className={styles.receipt}
      src={receipt.data}
      width={64}
      height={64}
      alt={`${T.receipt} #${id}`}
      preview={{ mask: T.receipt }}
    />
  )
}
