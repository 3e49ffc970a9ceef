import { describe, expect, it } from 'vitest'
import type { ClientConfig } from '@numisma/contracts/client-config'
import { isClientConfig } from './config'

const CONFIG: ClientConfig = {
  env: 'development',
  services: { main: '/svc/main', search: '/svc/search', push: '/svc/push' },
  apps: { h5: { id: 'h5', key: 'k' }, search: { id: 'search', key: 'k2' } },
  signSecret: 's',
  wechat: { appId: 'wx1', authorizeUrl: '/svc/sandbox/wx/connect/oauth2/authorize' },
  chat: { agentId: 'agent-1' },
}

describe('isClientConfig', () => {
  it('accepts a configuration with or without the messaging platform', () => {
    expect(isClientConfig(CONFIG)).toBe(true)
    expect(isClientConfig({ ...CONFIG, wechat: null })).toBe(true)
  })

  it('refuses a configuration whose wechat or chat part is missing or malformed', () => {
    const { wechat: _wechat, ...noWechat } = CONFIG
    const { chat: _chat, ...noChat } = CONFIG
    for (const bad of [
      noWechat,
      noChat,
      { ...CONFIG, wechat: { appId: 'wx1' } },
      { ...CONFIG, chat: { agentId: 7 } },
      { ...CONFIG, chat: null },
    ]) {
      expect(isClientConfig(bad)).toBe(false)
    }
  })
})
