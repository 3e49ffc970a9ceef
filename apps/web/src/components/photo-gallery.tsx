import { useState } from 'react'
import { ImageViewer, Swiper } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import styles from './photo-gallery.module.css'

/** Item photos: swipe through them, tap one to zoom (pinch and swipe in the viewer). */
export function PhotoGallery({ images, title }: { images: readonly string[]; title: string }) {
  const { t } = useTranslation()
  const [index, setIndex] = useState(0)
  const [viewing, setViewing] = useState(false)
  if (images.length === 0) return <div className={`${styles.gallery} ${styles.empty}`} />
  return (
    <div className={styles.gallery}>
      <Swiper onIndexChange={setIndex} indicator={() => null} loop={images.length > 1}>
        {images.map((src, i) => (
          <Swiper.Item key={src}>
            <button
              type="button"
              className={styles.slide}
              onClick={() => setViewing(true)}
              aria-label={t('gallery.zoom', { n: i + 1 })}
            >
              <img src={src} alt={`${title} ${i + 1}`} decoding="async" />
            </button>
          </Swiper.Item>
        ))}
      </Swiper>
      <span className={styles.count}>
        {index + 1}/{images.length}
      </span>
      <ImageViewer.Multi
        images={[...images]}
        visible={viewing}
        defaultIndex={index}
        onClose={() => setViewing(false)}
        classNames={{ mask: styles.viewer }}
      />
    </div>
  )
}
