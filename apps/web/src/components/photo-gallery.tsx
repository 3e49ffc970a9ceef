import { useRef, useState } from 'react'
import { ImageViewer, Swiper, type SwiperRef } from 'antd-mobile'
import { useTranslation } from '../lib/i18n'
import styles from './photo-gallery.module.css'

/** Which photo the zoom viewer opened on, and which opening it is (the viewer's key). */
interface Viewing {
  start: number
  opening: number
  visible: boolean
}

/** Item photos: swipe through them, tap one to zoom (pinch and swipe in the viewer). */
export function PhotoGallery({ images, title }: { images: readonly string[]; title: string }) {
  const { t } = useTranslation()
  const swiper = useRef<SwiperRef>(null)
  const [index, setIndex] = useState(0)
  const [viewing, setViewing] = useState<Viewing>({ start: 0, opening: 0, visible: false })
  if (images.length === 0) return <div className={`${styles.gallery} ${styles.empty}`} />
  const open = (start: number) =>
    setViewing((v) => ({ start, opening: v.opening + 1, visible: true }))
  return (
    <div className={styles.gallery}>
      <Swiper ref={swiper} onIndexChange={setIndex} indicator={() => null} loop={images.length > 1}>
        {images.map((src, i) => (
          <Swiper.Item key={src}>
            <button
              type="button"
              className={styles.slide}
              onClick={() => open(i)}
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
      {/* ImageViewer.Multi reads defaultIndex only when it mounts: a new key for each opening
          starts it on the tapped photo. Closing keeps the key, so the viewer still fades out.
          Not before the first opening: closed, it still renders its mask's animation hooks, in the
          item page's first render (issue 13). */}
      {viewing.opening > 0 && (
        <ImageViewer.Multi
          key={viewing.opening}
          images={[...images]}
          visible={viewing.visible}
          defaultIndex={viewing.start}
          onIndexChange={(i) => swiper.current?.swipeTo(i)}
          onClose={() => setViewing((v) => ({ ...v, visible: false }))}
          classNames={{ mask: styles.viewer }}
        />
      )}
    </div>
  )
}
