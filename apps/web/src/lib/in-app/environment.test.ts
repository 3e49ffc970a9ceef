import { describe, expect, it } from 'vitest'
import { inAppEnvironmentOf } from './environment'

describe('inAppEnvironmentOf', () => {
  it('recognises the native app by its marker, whatever else the agent says', () => {
    expect(
      inAppEnvironmentOf(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 NumismaApp/2.0.0',
      ),
    ).toBe('native')
    expect(inAppEnvironmentOf('Mozilla/5.0 NumismaApp/2.0.0 MicroMessenger/8.0.50')).toBe('native')
  })

  it('recognises the messaging app and the microblog app', () => {
    expect(
      inAppEnvironmentOf(
        'Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 Chrome/116 Mobile Safari/537.36 MicroMessenger/8.0.50.2701(0x28003253) NetType/WIFI Language/zh_CN',
      ),
    ).toBe('messaging')
    expect(
      inAppEnvironmentOf(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Weibo (iPhone15,2__weibo__14.1.0__iphone__os17.0)',
      ),
    ).toBe('microblog')
  })

  it('is a plain browser otherwise (a marker needs its version)', () => {
    expect(inAppEnvironmentOf('Mozilla/5.0 (X11; Linux x86_64) Chrome/120')).toBe('browser')
    expect(inAppEnvironmentOf('Mozilla/5.0 NumismaApp')).toBe('browser')
  })
})
