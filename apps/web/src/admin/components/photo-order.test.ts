import { describe, expect, it } from 'vitest'
import { dropSlot, fillSlot, fitsInField, settleSlots, type PhotoSlot } from './photo-order'

const chosen = (...names: string[]): PhotoSlot[] =>
  names.map((name) => ({ uid: name, name: `${name}.jpg`, url: null }))

describe('photo order', () => {
  it('keeps the order the files were chosen when the second upload finishes first', () => {
    let slots = chosen('front', 'back')
    slots = fillSlot(slots, 'back', '/back.jpg')
    const early = settleSlots(['/old.jpg'], slots, 20)
    expect(early).toEqual({ urls: ['/old.jpg'], slots, moved: 0 })

    const done = settleSlots(early.urls, fillSlot(early.slots, 'front', '/front.jpg'), 20)
    expect(done.urls).toEqual(['/old.jpg', '/front.jpg', '/back.jpg'])
    expect(done.slots).toEqual([])
    expect(done.moved).toBe(2)
  })

  it('lets a finished photo join at once when everything chosen before it is in', () => {
    const slots = fillSlot(chosen('a', 'b', 'c'), 'a', '/a.jpg')
    const settled = settleSlots([], slots, 20)
    expect(settled.urls).toEqual(['/a.jpg'])
    expect(settled.slots.map((s) => s.uid)).toEqual(['b', 'c'])
  })

  it('lets the photos behind a failed upload join once it is dropped', () => {
    let slots = chosen('a', 'b', 'c')
    slots = fillSlot(fillSlot(slots, 'c', '/c.jpg'), 'b', '/b.jpg')
    expect(settleSlots([], slots, 20).moved).toBe(0)
    const settled = settleSlots([], dropSlot(slots, 'a'), 20)
    expect(settled.urls).toEqual(['/b.jpg', '/c.jpg'])
    expect(settled.slots).toEqual([])
  })

  it('never holds more than the field allows', () => {
    const slots = fillSlot(fillSlot(chosen('a', 'b'), 'a', '/a.jpg'), 'b', '/b.jpg')
    expect(settleSlots(['/x.jpg'], slots, 2).urls).toEqual(['/x.jpg', '/a.jpg'])
    expect(fitsInField(1, 0, 2)).toBe(true)
    expect(fitsInField(1, 1, 2)).toBe(false)
    expect(fitsInField(0, 0, 1)).toBe(true)
  })
})
