import type { ReactNode } from 'react'
import { createErrorBlock } from 'antd-mobile/es/components/error-block/create-error-block'
import styles from './empty-state.module.css'
import { laterModule } from '../lib/later-module'

export interface EmptyStateProps {
  description: ReactNode
  title?: ReactNode
  status?: 'empty' | 'default' | 'disconnected' | 'busy'
  children?: ReactNode
}

const NO_PICTURE = <span />

/**
 * antd-mobile's ErrorBlock without its four pictures, inline SVGs of about 8 KB gzip that every
 * page using it would load first (issue 13); they follow once a block has mounted, into the box the
 * block already holds for them.
 */
const Block = createErrorBlock({
  default: NO_PICTURE,
  disconnected: NO_PICTURE,
  empty: NO_PICTURE,
  busy: NO_PICTURE,
})

const usePictures = laterModule(async () => {
  const pictures = await import('antd-mobile/es/components/error-block/images')
  return {
    default: pictures.defaultImage,
    disconnected: pictures.disconnectedImage,
    empty: pictures.emptyImage,
    busy: pictures.busyImage,
  }
})

/** "Nothing here yet": a picture, a sentence, and optionally an action. */
export function EmptyState({
  description,
  title = '',
  status = 'empty',
  children,
}: EmptyStateProps) {
  const pictures = usePictures()
  return (
    <Block
      className={styles.emptyState}
      status={status}
      title={title}
      description={description}
      image={pictures?.[status]}
    >
      {children}
    </Block>
  )
}
