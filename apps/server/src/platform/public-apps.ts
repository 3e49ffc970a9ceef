import { DEFAULT_CHAT_AGENT_ID } from '@numisma/contracts/chat'
import type { ClientConfig } from '@numisma/contracts/client-config'
import { randomToken } from './crypto'
import type { SettingsRepository } from './settings-repository'

/**
 * The anonymous app pairs (H5 and search, spec §7) and the X-Sign secret. They are public by
 * nature — the browser must hold them — so they grant nothing but an anonymous, signed call. They
 * are generated once per database, so every instance of a deployment agrees on them.
 */
export interface PublicApps {
  h5: { id: string; key: string }
  search: { id: string; key: string }
  signSecret: string
}

export const H5_APP_ID = 'h5'
export const SEARCH_APP_ID = 'search'

export async function loadPublicApps(settings: SettingsRepository): Promise<PublicApps> {
  return {
    h5: { id: H5_APP_ID, key: await settings.getOrInsert('app.h5.key', randomToken(24)) },
    search: {
      id: SEARCH_APP_ID,
      key: await settings.getOrInsert('app.search.key', randomToken(24)),
    },
    signSecret: await settings.getOrInsert('sign.secret', randomToken(24)),
  }
}

export function clientConfig(
  apps: PublicApps,
  env: ClientConfig['env'],
  inApp: Pick<ClientConfig, 'wechat' | 'chat'> = {
    wechat: null,
    chat: { agentId: DEFAULT_CHAT_AGENT_ID },
  },
): ClientConfig {
  return {
    env,
    services: { main: '/svc/main', search: '/svc/search', push: '/svc/push' },
    apps: { h5: apps.h5, search: apps.search },
    signSecret: apps.signSecret,
    ...inApp,
  }
}
