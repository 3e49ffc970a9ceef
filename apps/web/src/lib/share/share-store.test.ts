import type { ShareInfo } from '@numisma/contracts/share'
import { describe, expect, it } from 'vitest'
import { createShareStore } from './share-store'

const info = (title: string): ShareInfo => ({
  title,
  desc: '',
  link: 'https://shop.example/productDetail?id=1',
  imgUrl: 'https://shop.example/a.jpg',
})

describe('createShareStore', () => {
  it('keeps each page its own entry, so a kept-alive page cannot overwrite the one on screen', () => {
    const store = createShareStore()
    store.set('/productDetail?id=1', info('Lot 1'))
    store.set('/productDetail?id=2', info('Lot 2'))
    expect(store.get('/productDetail?id=1')?.title).toBe('Lot 1')
    expect(store.get('/productDetail?id=2')?.title).toBe('Lot 2')
  })

  it("removes an entry only while it is still that page's, and tells listeners of real changes", () => {
    const store = createShareStore()
    let changes = 0
    store.subscribe(() => (changes += 1))
    store.set('/p', info('old'))
    store.set('/p', info('new'))
    store.set('/p', info('new'))
    store.remove('/p', info('old'))
    expect(store.get('/p')?.title).toBe('new')
    expect(changes).toBe(2)
    store.remove('/p', info('new'))
    expect(store.get('/p')).toBeUndefined()
    expect(changes).toBe(3)
  })
})
