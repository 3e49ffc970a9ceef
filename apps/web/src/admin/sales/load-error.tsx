import { Alert, Button } from 'antd'
import { inBackground } from '../../lib/background'
import styles from './load-error.module.css'
import { SALES_TEXT as T } from './texts'

/** A read that failed, said so (never an empty table), with a retry. */
export function LoadError({ retry }: { retry: () => Promise<unknown> }) {
  return (
    <Alert
      className={styles.error}
      type="error"
      showIcon
      message={T.loadFailed}
      action={
        <Button size="small" onClick={() => inBackground(retry())}>
          {T.retry}
        </Button>
      }
    />
  )
}
