import { describe, expect, it } from 'vitest'
import { ERRORS, errorText, isErrorCode, pickLocale } from './errors'
import { CLIENT_ERRORS, clientErrorText } from './errors-client'

describe('error catalogue (spec §8)', () => {
  it('has the spec texts in English and Chinese', () => {
    expect(errorText('GET_USER_FAILED', 'en')).toBe('failed to get user')
    expect(errorText('REQUEST_FAILED', 'en')).toBe('request failed')
    expect(errorText('INTERFACE_REQUEST_FAILED', 'en')).toBe('interface request failed')
    expect(errorText('OPERATION_FAILED', 'en')).toBe('operation failed, please try again later')
    expect(errorText('OFFLINE', 'en')).toBe('the connection to the internet seems lost')
    expect(errorText('SHARE_INIT_FAILED', 'en')).toBe('failed to initialise sharing')
    expect(errorText('BID_FAILED')).toBe('出价失败')
  })

  it('gives every entry both texts and a sane status', () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/)
      expect(entry.zh.length).toBeGreaterThan(0)
      expect(entry.en.length).toBeGreaterThan(0)
      expect(entry.status === 0 || (entry.status >= 400 && entry.status < 600)).toBe(true)
    }
  })

  it('knows its own codes only', () => {
    expect(isErrorCode('BID_TOO_LOW')).toBe(true)
    expect(isErrorCode('toString')).toBe(false)
    expect(isErrorCode(42)).toBe(false)
  })

  it('picks zh unless English comes first', () => {
    expect(pickLocale(undefined)).toBe('zh')
    expect(pickLocale('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh')
    expect(pickLocale('en-US,en;q=0.9')).toBe('en')
    expect(pickLocale('fr')).toBe('zh')
  })

  it('takes the client texts from the client table, unchanged, and nothing else from it', () => {
    for (const [code, entry] of Object.entries(CLIENT_ERRORS)) {
      expect(ERRORS[code as keyof typeof ERRORS]).toBe(entry)
      expect(clientErrorText(code as keyof typeof CLIENT_ERRORS, 'en')).toBe(
        errorText(code as keyof typeof CLIENT_ERRORS, 'en'),
      )
    }
    // Every status-0 entry is a client one (and no server code shadows a client code).
    const clientOnly = Object.keys(ERRORS).filter(
      (code) => ERRORS[code as keyof typeof ERRORS].status === 0,
    )
    expect(clientOnly).toEqual(Object.keys(CLIENT_ERRORS))
    expect(clientErrorText('OFFLINE')).toBe('网络连接似乎已断开')
  })
})
