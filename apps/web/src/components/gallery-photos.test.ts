import { describe, expect, it } from 'vitest'
import { galleryPhotos } from './gallery-photos'

describe('galleryPhotos', () => {
  it('shows the gallery, else the list picture', () => {
    expect(galleryPhotos({ images: ['/a.svg', '/b.svg'], image: '/a.svg' })).toEqual([
      '/a.svg',
      '/b.svg',
    ])
    expect(galleryPhotos({ images: [], image: '/a.svg' })).toEqual(['/a.svg'])
  })

  it('shows no photo (the plain tile) for an item without pictures, not an empty src', () => {
    expect(galleryPhotos({ images: [], image: '' })).toEqual([])
  })
})
