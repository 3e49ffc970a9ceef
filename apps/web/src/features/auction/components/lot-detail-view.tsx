import type { LotDetail } from '@numisma/contracts/catalog'
import { formatChinaDate } from '@numisma/contracts/dates'
import { gradeName, hasGrade } from '@numisma/contracts/grades'
import { List, Tag } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate } from 'react-router'
import { Countdown } from '../../../components/countdown'
import { GradeBadge } from '../../../components/grade-badge'
import { ItemFact } from '../../../components/item-fact'
import {
  ItemCard,
  ItemCert,
  ItemDescription,
  ItemDetail,
  ItemFacts,
  ItemHeading,
  ItemTags,
} from '../../../components/item-detail'
import { galleryPhotos } from '../../../components/gallery-photos'
import { PhotoGallery } from '../../../components/photo-gallery'
import { Price } from '../../../components/price'
import { inBackground } from '../../../lib/background'
import { isLotClosed, shownPrice } from '../../../lib/lot-outcome'
import { useLocale } from '../../../lib/use-locale'
import { stepAt } from '@numisma/domain/increments'
import { usePriceSteps } from '../api/get-price-steps'
import styles from './lot-detail-view.module.css'

const DATE = 'YYYY-MM-DD HH:mm:ss'

/** Everything about a lot a collector checks before bidding. */
export function LotDetailView({ lot }: { lot: LotDetail }) {
  const { t } = useTranslation()
  const locale = useLocale()
  const navigate = useNavigate()
  const steps = usePriceSteps()
  const closed = isLotClosed(lot)
  const shown = shownPrice(lot)
  const step =
    steps.data && steps.data.length > 0
      ? stepAt(lot.price ?? lot.startPrice, steps.data)
      : undefined
  const images = galleryPhotos(lot)
  const band = closed ? styles.closed : lot.status === 'preview' ? styles.preview : ''

  return (
    <ItemDetail data-lot-id={lot.id}>
      <PhotoGallery images={images} title={lot.title} />

      <div className={`${styles.priceBand} ${band}`} data-testid="price-band">
        <div className={styles.bandMain}>
          <span className={styles.bandLabel}>{t(shown.labelKey)}</span>
          <Price fen={shown.fen} size="lg" className={styles.price} />
        </div>
        <div className={styles.bandSide}>
          <span className={styles.bandStatus}>{t(`lot.status.${lot.status}`)}</span>
          <Countdown
            startsAt={lot.startsAt}
            endsAt={lot.endsAt}
            closed={closed}
            // The tag beside it already says sold or unsold.
            endedText={t('lot.status.ended')}
            className={styles.countdown}
            labelClassName={styles.countdownLabel}
            timeClassName={styles.countdownTime}
          />
        </div>
      </div>

      <ItemCard>
        <ItemHeading title={lot.title} subtitle={lot.subtitle} />
        <ItemTags>
          <GradeBadge gradeCode={lot.gradeCode} gradingService={lot.gradingService} />
          <ItemCert certNo={lot.certNo} />
        </ItemTags>
        <ItemTags>
          {lot.hasReserve ? (
            <Tag color={lot.reserveMet ? 'success' : 'warning'} fill="outline">
              {lot.reserveMet ? t('lot.reserveMet') : t('lot.reserveNotMet')}
            </Tag>
          ) : (
            <Tag color="default" fill="outline">
              {t('lot.noReserve')}
            </Tag>
          )}
          {lot.exportBanned ? (
            <Tag color="danger" fill="outline">
              {t('item.exportBanned')}
            </Tag>
          ) : null}
          {lot.leading && !closed ? <Tag color="success">{t('lot.leading')}</Tag> : null}
        </ItemTags>
        <dl className={styles.stats}>
          <div>
            <dt>{t('lot.startPrice')}</dt>
            <dd>
              <Price fen={lot.startPrice} size="sm" muted />
            </dd>
          </div>
          <div>
            <dt>{t('lot.step')}</dt>
            <dd>{step === undefined ? '—' : <Price fen={step} size="sm" muted />}</dd>
          </div>
          <div>
            <dt>{t('lot.bids')}</dt>
            <dd className={styles.statsCount}>{lot.bidCount}</dd>
          </div>
        </dl>
        {lot.myMax !== null ? (
          <p className={styles.myMax}>
            {t('lot.myMax')} <Price fen={lot.myMax} size="sm" />
          </p>
        ) : null}
      </ItemCard>

      <List className={styles.links}>
        <List.Item
          onClick={() => inBackground(navigate(`/productHistory?id=${lot.id}`))}
          extra={t('lot.bidCount', { count: lot.bidCount })}
        >
          {t('lot.history')}
        </List.Item>
        <List.Item
          onClick={() => inBackground(navigate(`/specialDetail?id=${lot.specialId}`))}
          extra={lot.specialTitle}
        >
          {t('lot.special')}
        </List.Item>
        <List.Item onClick={() => inBackground(navigate('/rules'))}>{t('lot.rules')}</List.Item>
      </List>

      <ItemCard title={t('item.facts')}>
        <ItemFacts>
          <ItemFact label={t('lot.lotNoLabel')} value={t('lot.lotNo', { no: lot.lotNo })} />
          <ItemFact
            label={t('item.grade')}
            value={hasGrade(lot.gradeCode) ? gradeName(lot.gradeCode, locale) : t('item.ungraded')}
          />
          <ItemFact label={t('item.gradingService')} value={lot.gradingService ?? t('item.none')} />
          <ItemFact label={t('item.certNoLabel')} value={lot.certNo ?? t('item.none')} />
          <ItemFact label={t('item.year')} value={lot.year || t('item.none')} />
          <ItemFact label={t('item.denomination')} value={lot.denomination || t('item.none')} />
          <ItemFact label={t('item.material')} value={lot.material || t('item.none')} />
          <ItemFact
            label={t('item.export')}
            value={lot.exportBanned ? t('item.exportBanned') : t('item.exportAllowed')}
          />
          <ItemFact label={t('lot.startsAt')} value={formatChinaDate(lot.startsAt, DATE)} />
          <ItemFact label={t('lot.endsAt')} value={formatChinaDate(lot.endsAt, DATE)} />
        </ItemFacts>
        <p className={styles.note}>
          {t('lot.softCloseNote', {
            window: Math.round(lot.softCloseWindowSeconds / 60),
            extend: Math.round(lot.softCloseExtendSeconds / 60),
          })}
        </p>
      </ItemCard>

      <ItemDescription text={lot.description} />
    </ItemDetail>
  )
}
