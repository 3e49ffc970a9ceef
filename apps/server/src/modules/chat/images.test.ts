import { CHAT_IMAGE_STORED_MAX_BYTES } from '@numisma/contracts/chat'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { CHAT_IMAGE_DECODES_AT_ONCE, CHAT_IMAGE_MAX_PX, chatImages, limitDecodes } from './images'

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`

/** A picture of random noise: the worst case for JPEG, about 1.8 MB at 1600 px and quality 82. */
async function noise(side: number): Promise<Buffer> {
  const raw = Buffer.alloc(side * side * 3)
  for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(Math.random() * 256)
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer()
}

describe('chat pictures as stored', () => {
  it('re-encodes a picture over the byte cap smaller until it fits, still a JPEG', async () => {
    const jpeg = await chatImages.normalise(dataUrl(await noise(CHAT_IMAGE_MAX_PX)))
    expect(jpeg.length).toBeLessThanOrEqual(CHAT_IMAGE_STORED_MAX_BYTES)
    const meta = await sharp(jpeg).metadata()
    expect(meta.format).toBe('jpeg')
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeGreaterThanOrEqual(640)
  })

  it('keeps an ordinary picture at its full size and quality', async () => {
    const flat = await sharp({
      create: { width: 1600, height: 1200, channels: 3, background: { r: 200, g: 160, b: 40 } },
    })
      .png()
      .toBuffer()
    const jpeg = await chatImages.normalise(dataUrl(flat))
    const meta = await sharp(jpeg).metadata()
    expect([meta.width, meta.height]).toEqual([1600, 1200])
  })

  it('runs at most two decodings at once, the rest in turn', async () => {
    let running = 0
    let most = 0
    const done = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        limitDecodes(async () => {
          most = Math.max(most, ++running)
          await new Promise((r) => setTimeout(r, 5))
          running--
          return i
        }),
      ),
    )
    expect(done).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(most).toBe(CHAT_IMAGE_DECODES_AT_ONCE)
    expect(CHAT_IMAGE_DECODES_AT_ONCE).toBe(2)
  })
})
