import { gradeName, hasGrade } from '@numisma/contracts/grades'
import { useLocale } from '../lib/use-locale'
import styles from './grade-badge.module.css'

export interface GradeBadgeProps {
  gradeCode: number | null | undefined
  gradingService?: string | null
  className?: string
}

/** The grading service and the spec §3 grade name, e.g. [PCGS | 九五品]; nothing when neither. */
export function GradeBadge({ gradeCode, gradingService, className }: GradeBadgeProps) {
  const locale = useLocale()
  const graded = hasGrade(gradeCode)
  if (!graded && !gradingService) return null
  const name = graded ? gradeName(gradeCode, locale) : null
  return (
    <span className={[styles.badge, className ?? ''].join(' ').trim()} data-testid="grade-badge">
      {gradingService ? <span className={styles.service}>{gradingService}</span> : null}
      {name ? <span className={styles.name}>{name}</span> : null}
    </span>
  )
}
