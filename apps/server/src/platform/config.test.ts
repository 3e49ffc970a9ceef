import { describe, expect, it } from 'vitest'
import { loadConfig } from './config'

/** Settings that reach a security control are checked at start, not trusted as typed (issue 15). */
describe('loadConfig', () => {
  it('takes host names only for IMAGE_URL_HOSTS: each goes into the CSP img-src', () => {
    expect(loadConfig({ IMAGE_URL_HOSTS: 'img.example.com, CDN.Example.org' }).imageHosts).toEqual([
      'img.example.com',
      'cdn.example.org',
    ])
    for (const value of ['*', '*.example.com', 'https://img.example.com', 'img.example.com/x']) {
      expect(() => loadConfig({ IMAGE_URL_HOSTS: value }), value).toThrow(/IMAGE_URL_HOSTS/)
    }
  })

  it('sends SMS over https, or plain http only to this machine', () => {
    const endpoint = (value: string) => loadConfig({ SMS_ENDPOINT: value }).sms.endpoint
    expect(endpoint('https://sms.example.com')).toBe('https://sms.example.com')
    expect(endpoint('http://127.0.0.1:9120/svc/sandbox/sms')).toBe(
      'http://127.0.0.1:9120/svc/sandbox/sms',
    )
    for (const value of [
      'http://sms.example.com',
      'ftp://sms.example.com',
      'http://localhost.evil',
    ]) {
      expect(() => loadConfig({ SMS_ENDPOINT: value }), value).toThrow(/SMS_ENDPOINT/)
    }
  })

  it('serves every role unless ROLES names some, and refuses a name that is not a role', () => {
    expect(loadConfig({}).roles).toEqual(['main', 'search', 'push'])
    expect(loadConfig({ ROLES: 'push, MAIN' }).roles).toEqual(['main', 'push'])
    expect(loadConfig({ ROLES: 'search' }).roles).toEqual(['search'])
    for (const value of ['mian', 'main,,push', 'main,jobs', ',']) {
      expect(() => loadConfig({ ROLES: value }), value).toThrow(/ROLES: unknown role/)
    }
  })

  it('waits 10 s for requests in flight at shutdown unless SHUTDOWN_TIMEOUT_MS says otherwise', () => {
    expect(loadConfig({}).shutdownTimeoutMs).toBe(10_000)
    expect(loadConfig({ SHUTDOWN_TIMEOUT_MS: '2500' }).shutdownTimeoutMs).toBe(2500)
    for (const value of ['-1', '1.5', 'soon', '600001']) {
      expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: value }), value).toThrow(/SHUTDOWN_TIMEOUT_MS/)
    }
  })

  it('closes the listener at once on SIGTERM unless SHUTDOWN_DRAIN_MS asks for a drain window', () => {
    expect(loadConfig({}).shutdownDrainMs).toBe(0)
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '5000' }).shutdownDrainMs).toBe(5000)
    for (const value of ['-1', '1.5', 'soon', '600001']) {
      expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: value }), value).toThrow(/SHUTDOWN_DRAIN_MS/)
    }
  })
})
