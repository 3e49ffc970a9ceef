import type { CSSProperties } from 'react'
import type { Banner } from '@numisma/contracts/catalog'
import { PageIndicator, Skeleton } from 'antd-mobile'
import { useTranslation } from '../lib/i18n'
import { useNavigate } from 'react-router'
import { bannerTarget } from '../lib/banner-link'
import { localTitle } from '../lib/local-name'
import { useLocale } from '../lib/use-locale'
import styles from './banner-swiper.module.css'
import { inBackground } from '../lib/background'
import { useGestures } from './use-gestures'

export interface BannerSwiperProps {
  banners: readonly Banner[] | undefined
  className?: string
}

const SKELETON = {
  '--height': '8.5rem',
  '--width': 'auto',
  '--border-radius': '0.75rem',
} as CSSProperties

/**
 * Auto-playing banners; a tap follows the banner's in-app link. Hidden when there are none. Until
 * the swiper's code has arrived (./gestures, right after the first render) and in the server's
 * first screen, the first banner stands still where the swiper shows it, dots included.
 */
export function BannerSwiper({ banners, className }: BannerSwiperProps) {
  const { t } = useTranslation()
  const locale = useLocale()
  const navigate = useNavigate()
  const gestures = useGestures()
  const classes = [styles.swiper, className ?? ''].join(' ').trim()
  // The skeleton takes the banner's own size inline: antd-mobile's own --height: 100% beat the
  // stylesheet and collapsed it to nothing, so everything below moved down when the banners
  // arrived (issue 13: layout shift).
  if (!banners) return <Skeleton animated className={classes} style={SKELETON} />
  if (banners.length === 0) return null

  const open = (banner: Banner): void => {
    const target = bannerTarget(banner.link)
    if (target?.kind === 'route') inBackground(navigate(target.to))
    else if (target?.kind === 'external') window.location.assign(target.href)
  }

  const slide = (banner: Banner) => (
    <button type="button" className={styles.slide} onClick={() => open(banner)}>
      <span className={styles.text}>
        <span className={styles.title}>{localTitle(banner, locale)}</span>
        <span className={styles.cta}>{t('home.bannerCta')}</span>
      </span>
      <img src={banner.image} alt="" />
    </button>
  )

  if (!gestures) {
    return (
      <div className={`${classes} ${styles.still}`}>
        {slide(banners[0]!)}
        <div className={styles.indicator}>
          <PageIndicator total={banners.length} current={0} />
        </div>
      </div>
    )
  }

  const { Swiper } = gestures
  return (
    <div className={classes}>
      <Swiper autoplay={banners.length > 1} loop={banners.length > 1} autoplayInterval={4000}>
        {banners.map((banner) => (
          <Swiper.Item key={banner.id}>{slide(banner)}</Swiper.Item>
        ))}
      </Swiper>
    </div>
  )
}
