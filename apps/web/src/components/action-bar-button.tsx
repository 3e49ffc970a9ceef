import { Button, type ButtonProps } from 'antd-mobile'
import styles from './action-bar-button.module.css'

/** The full-width button of a page's footer bar (a lot's bid bar, a mall item's buy bar). */
export function ActionBarButton({ className, ...rest }: ButtonProps) {
  return (
    <Button className={className ? `${styles.button} ${className}` : styles.button} {...rest} />
  )
}
