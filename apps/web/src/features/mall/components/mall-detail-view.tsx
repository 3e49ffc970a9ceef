import type { ReactNode } from 'react'
import type { MallItemDetail } from '@numisma/contracts/catalog'
import { gradeName, hasGrade } from '@numisma/contracts/grades'
import { Tag } from 'antd-mobile'
import { RightOutline } from 'antd-mobile-icons'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'react-router'
import { GradeBadge } from '../../../components/grade-badge'
import {
  ItemCard,
  ItemCert,
  ItemDescription,
  ItemDetail,
  ItemFacts,
  ItemHeading,
  ItemTags,
} from '../../../components/item-detail'
import { ItemFact } from '../../../components/item-fact'
import { galleryPhotos } from '../../../components/gallery-photos'
import { PhotoGallery } from '../../../components/photo-gallery'
import { Price } from '../../../components/price'
import { useLocale } from '../../../lib/use-locale'
import styles from './mall-detail-view.module.css'

/**
 * A mall item: photos, price, stock and limit, grade and facts; `coupons` (the 领券 row) sits
 * under the price card.
 */
export function MallDetailView({ item, coupons }: { item: MallItemDetail; coupons?: ReactNode }) {
  const { t } = useTranslation()
  const locale = useLocale()
  const images = galleryPhotos(item)
  return (
    <ItemDetail data-product-no={item.productNo}>
      <PhotoGallery images={images} title={item.title} />
      <ItemCard>
        <div className={styles.priceRow}>
          <Price fen={item.price} size="lg" muted={!item.onSale || item.stock <= 0} />
          <Link
            className={styles.records}
            to={`/orderHistory?productNo=${encodeURIComponent(item.productNo)}`}
            data-testid="purchase-records-link"
          >
            <span className={styles.sold}>{t('mall.sold', { count: item.sold })}</span>
            <span>{t('mall.records')}</span>
            <RightOutline />
          </Link>
        </div>
        <ItemHeading title={item.title} subtitle={item.subtitle} />
        <ItemTags>
          <GradeBadge gradeCode={item.gradeCode} gradingService={item.gradingService} />
          <ItemCert certNo={item.certNo} />
        </ItemTags>
        <ItemTags>
          {!item.onSale ? (
            <Tag color="default">{t('mall.offSale')}</Tag>
          ) : item.stock <= 0 ? (
            <Tag color="default">{t('mall.soldOut')}</Tag>
          ) : (
            <Tag color="success" fill="outline">
              {t('mall.stock', { count: item.stock })}
            </Tag>
          )}
          {item.limitPerUser !== null ? (
            <Tag color="warning" fill="outline">
              {t('mall.limit', { count: item.limitPerUser })}
            </Tag>
          ) : null}
          {item.exportBanned ? (
            <Tag color="danger" fill="outline">
              {t('item.exportBanned')}
            </Tag>
          ) : null}
        </ItemTags>
      </ItemCard>
      {coupons}
      <ItemCard title={t('item.facts')}>
        <ItemFacts>
          <ItemFact label={t('mall.productNo')} value={item.productNo} />
          <ItemFact
            label={t('item.grade')}
            value={
              hasGrade(item.gradeCode) ? gradeName(item.gradeCode, locale) : t('item.ungraded')
            }
          />
          <ItemFact
            label={t('item.gradingService')}
            value={item.gradingService ?? t('item.none')}
          />
          <ItemFact label={t('item.certNoLabel')} value={item.certNo ?? t('item.none')} />
          <ItemFact label={t('item.year')} value={item.year || t('item.none')} />
          <ItemFact label={t('item.denomination')} value={item.denomination || t('item.none')} />
          <ItemFact label={t('item.material')} value={item.material || t('item.none')} />
          <ItemFact
            label={t('mall.limitLabel')}
            value={
              item.limitPerUser === null
                ? t('mall.noLimit')
                : t('mall.limit', { count: item.limitPerUser })
            }
          />
          <ItemFact
            label={t('item.export')}
            value={item.exportBanned ? t('item.exportBanned') : t('item.exportAllowed')}
          />
        </ItemFacts>
      </ItemCard>
      <ItemDescription text={item.description} />
    </ItemDetail>
  )
}
