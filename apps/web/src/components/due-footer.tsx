import { Button } from 'antd-mobile'
import type { ReactNode } from 'react'
import styles from './due-footer.module.css'
import { Price } from './price'

/** The class a page's frame gives its footer bar when the bar is a DueFooter (a shadow above). */
export const DUE_FOOTER_FRAME = styles.frame

/** A footer-bar button shaped like DueFooter's (e.g. a lone action in the same bar). */
export const DUE_FOOTER_BUTTON = styles.submit

/**
 * The footer of a screen that ends in money — paying, delivery, a counter booking: what is due
 * (a label and the amount, muted while it is not settled) and the button that commits it.
 * `testId` names the amount (`data-fen` carries it) and `{testId}`'s button is `submitTestId`.
 */
export function DueFooter({
  label,
  fen,
  muted,
  testId,
  submit,
}: {
  label: ReactNode
  /** null while the amount is not known yet. */
  fen: number | null
  muted?: boolean
  testId: string
  submit: {
    label: ReactNode
    testId: string
    disabled: boolean
    loading: boolean
    onClick: () => void
  }
}) {
  return (
    <div className={styles.footer}>
      <div className={styles.due}>
        <span className={styles.dueLabel}>{label}</span>
        <span data-testid={testId} data-fen={fen ?? ''}>
          <Price fen={fen ?? 0} size="lg" muted={muted === true || fen === null} />
        </span>
      </div>
      <Button
        color="primary"
        shape="rounded"
        className={styles.submit}
        data-testid={submit.testId}
        disabled={submit.disabled}
        loading={submit.loading}
        onClick={submit.onClick}
      >
        {submit.label}
      </Button>
    </div>
  )
}
