import { describe, expect, it } from 'vitest'
import {
  clearAllCookies,
  clearLoginCookies,
  createDeviceId,
  ensureDeviceId,
  memoryCookies,
  readSession,
} from './cookies'

describe('cookies', () => {
  it('creates a device id from a timestamp and a suffix, once', () => {
    expect(createDeviceId(1_700_000_000_000, () => 0.5)).toMatch(/^1700000000000[0-9a-z]{8}$/)
    const jar = memoryCookies()
    const first = ensureDeviceId(jar, 1)
    expect(ensureDeviceId(jar, 2)).toBe(first)
  })

  it('reads a session only when userId, id and key are all there', () => {
    expect(readSession(memoryCookies({ userId: 'u', id: 'i' }))).toBeNull()
    expect(
      readSession(memoryCookies({ userId: 'u', id: 'i', key: 'k', display: '张三' })),
    ).toMatchObject({
      userId: 'u',
      display: '张三',
    })
  })

  it('clears login cookies but keeps the device id and language', () => {
    const jar = memoryCookies({
      userId: 'u',
      id: 'i',
      key: 'k',
      agreement: '1',
      deviceId: 'd',
      lang: 'en',
    })
    clearLoginCookies(jar)
    expect(jar.names().sort()).toEqual(['deviceId', 'lang'])
    clearAllCookies(jar)
    expect(jar.names()).toEqual([])
  })
})
