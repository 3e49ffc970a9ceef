import { Skeleton } from 'antd-mobile'

/** The photo-and-card outline a lot or mall item page shows while it loads. */
export function DetailSkeleton() {
  return (
    <div className="item-detail" aria-busy="true">
      <Skeleton animated className="photo-gallery-skeleton" />
      <div className="item-card">
        <Skeleton.Title animated />
        <Skeleton.Paragraph lineCount={4} animated />
      </div>
    </div>
  )
}
