import type { SpecialSummary } from '@numisma/contracts/catalog'
import { Skeleton } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Countdown } from './countdown'
import { SpecialStatusTag } from './special-status-tag'

/** A special in the home list: cover, title, lot and bid counts, status and countdown. */
export function SpecialCard({ special }: { special: SpecialSummary }) {
  const { t } = useTranslation()
  return (
    <Link
      className="special-card"
      to={`/specialDetail?id=${special.id}`}
      data-special-id={special.id}
    >
      <div className="special-card-cover">
        <img src={special.cover} alt={special.title} loading="lazy" decoding="async" />
        <SpecialStatusTag status={special.status} className="special-card-status" />
      </div>
      <div className="special-card-info">
        <h3 className="special-card-title">{special.title}</h3>
        {special.subtitle ? <p className="special-card-subtitle">{special.subtitle}</p> : null}
        <div className="special-card-meta">
          {t('special.lotCount', { count: special.lotCount })}
          <span className="dot-sep">·</span>
          {t('special.bidCount', { count: special.bidCount })}
        </div>
        <Countdown
          startsAt={special.startsAt}
          endsAt={special.endsAt}
          closed={special.status === 'ended'}
          // Lots close one after another: past the first close a live special is still closing.
          endedText={special.status === 'live' ? t('special.closing') : undefined}
          className="special-card-countdown"
        />
      </div>
    </Link>
  )
}

export function SpecialCardSkeleton() {
  return (
    <div className="special-card" aria-hidden="true">
      <Skeleton animated className="special-card-cover" />
      <div className="special-card-info">
        <Skeleton.Paragraph lineCount={2} animated />
      </div>
    </div>
  )
}
