import { DotLoading } from 'antd-mobile'
import styles from './page-loading.module.css'

export function PageLoading() {
  return (
    <div className={styles.pageLoading} role="status" aria-live="polite">
      <DotLoading color="primary" style={{ fontSize: 28 }} />
    </div>
  )
}
