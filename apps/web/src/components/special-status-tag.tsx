import type { SpecialSummary } from '@numisma/contracts/catalog'
import { useTranslation } from '../lib/i18n'
import styles from './special-status-tag.module.css'

/** 预展中 / 拍卖中 / 已结束 as a small coloured tag. */
export function SpecialStatusTag({
  status,
  className,
}: {
  status: SpecialSummary['status']
  className?: string
}) {
  const { t } = useTranslation()
  return (
    <span className={[styles.tag, styles[status], className ?? ''].join(' ').trim()}>
      {t(`special.status.${status}`)}
    </span>
  )
}
