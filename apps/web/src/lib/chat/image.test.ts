import { describe, expect, it } from 'vitest'
import { chatImageSrc, fitWithin } from './image'

describe('chat pictures', () => {
  it('downscales only what is larger than the limit, keeping the shape', () => {
    expect(fitWithin(4000, 3000, 1600)).toEqual({ width: 1600, height: 1200 })
    expect(fitWithin(800, 600, 1600)).toEqual({ width: 800, height: 600 })
  })

  it('puts a service path under its base and leaves full URLs alone', () => {
    expect(chatImageSrc('/chat/images/ab12', '/svc/main')).toBe('/svc/main/chat/images/ab12')
    expect(chatImageSrc('/chat/images/ab12', '/svc/main/admin')).toBe(
      '/svc/main/admin/chat/images/ab12',
    )
    expect(chatImageSrc('/svc/main/chat/images/ab12', '/svc/main')).toBe(
      '/svc/main/chat/images/ab12',
    )
    expect(chatImageSrc('data:image/jpeg;base64,AA', '/svc/main')).toBe('data:image/jpeg;base64,AA')
  })

  it("puts a collector's picture under the push base, a socket URL's host read as the web's", () => {
    expect(chatImageSrc('/chat/images/ab12', '/svc/push')).toBe('/svc/push/chat/images/ab12')
    expect(chatImageSrc('/chat/images/ab12', 'wss://push.example.com/svc/push/')).toBe(
      'https://push.example.com/svc/push/chat/images/ab12',
    )
    expect(chatImageSrc('/chat/images/ab12', 'ws://127.0.0.1:8081/svc/push')).toBe(
      'http://127.0.0.1:8081/svc/push/chat/images/ab12',
    )
    expect(chatImageSrc('blob:http://x/1', 'wss://push.example.com/svc/push')).toBe(
      'blob:http://x/1',
    )
  })
})
