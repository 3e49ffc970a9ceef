import { useKeepAliveContext } from 'keepalive-for-react'
import { useTranslation } from '../lib/i18n'
import {
  countdownPhase,
  countdownRemaining,
  formatCountdown,
  isUrgent,
  type Timed,
} from '../lib/countdown'
import { useServerNow } from '../lib/server-clock'
import { useLocale } from '../lib/use-locale'
import styles from './countdown.module.css'

export interface CountdownProps extends Timed {
  /** The server already settled the item (sold, unsold, ended): no clock needed. */
  closed?: boolean
  /** Text once over, e.g. 已结拍 for a lot; 已结束 by default. */
  endedText?: string
  className?: string
  /** Restyle the 距结束 label and the time for a caller's background (the price band, a hero). */
  labelClassName?: string
  timeClassName?: string
}

/**
 * 距开拍 / 距结束 hh:mm:ss from server time (an offset measured over the page's own request, then
 * GET /pub/@time; lib/server-clock.ts). Until the server's time is known it shows dashes rather
 * than trusting the phone's clock.
 */
export function Countdown({
  startsAt,
  endsAt,
  closed = false,
  endedText,
  className,
  labelClassName,
  timeClassName,
}: CountdownProps) {
  const { t } = useTranslation()
  const locale = useLocale()
  const { active } = useKeepAliveContext()
  const now = useServerNow(active && !closed)
  const classes = [styles.countdown, className ?? '']
  const label = [styles.label, labelClassName ?? ''].join(' ').trim()
  const time = [styles.time, timeClassName ?? ''].join(' ').trim()
  if (closed) {
    return (
      <span className={[...classes, styles.ended].join(' ')}>
        {endedText ?? t('countdown.ended')}
      </span>
    )
  }
  if (now === undefined) {
    return (
      <span className={classes.join(' ')}>
        <span className={label}>{t('countdown.toEnd')}</span>
        <span className={time} data-testid="countdown-time">
          --:--:--
        </span>
      </span>
    )
  }
  const item = { startsAt, endsAt }
  const phase = countdownPhase(item, now)
  if (phase === 'ended') {
    return (
      <span className={[...classes, styles.ended].join(' ')}>
        {endedText ?? t('countdown.ended')}
      </span>
    )
  }
  const remaining = countdownRemaining(item, now, phase)
  if (phase === 'upcoming') classes.push(styles.upcoming)
  else if (isUrgent(remaining)) classes.push(styles.urgent)
  return (
    <span className={classes.join(' ')} role="timer">
      <span className={label}>
        {phase === 'upcoming' ? t('countdown.toStart') : t('countdown.toEnd')}
      </span>
      <span className={time} data-testid="countdown-time">
        {formatCountdown(remaining, locale)}
      </span>
    </span>
  )
}
