import styles from './item-image.module.css'

/**
 * An item's picture, or a plain tile when it has none (an operator may list an item before its
 * photos are taken): never a broken-image icon.
 */
export function ItemImage({
  src,
  alt,
  className,
  lazy = true,
}: {
  src: string
  alt: string
  className?: string
  lazy?: boolean
}) {
  if (src === '') {
    return (
      <span
        className={className ? `${styles.none} ${className}` : styles.none}
        role="img"
        aria-label={alt}
      />
    )
  }
  return (
    <img
      className={className}
      src={src}
      alt={alt}
      loading={lazy ? 'lazy' : undefined}
      decoding="async"
    />
  )
}
