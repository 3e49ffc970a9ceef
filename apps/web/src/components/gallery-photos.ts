/**
 * The photos an item page shows: its gallery, else its one list picture; none (the gallery's plain
 * tile) when it has neither — an empty src would draw a broken image with the title over it.
 */
export function galleryPhotos(item: { images: readonly string[]; image: string }): string[] {
  const photos = item.images.length > 0 ? item.images : [item.image]
  return photos.filter((src) => src !== '')
}
