import { CLIENT_CONFIG_GLOBAL, type ClientConfig } from '@numisma/contracts/client-config'
import { inlinedData } from './inlined-data'

/**
 * The public client configuration (DESIGN §9). The server inlines it into the HTML as a JSON data
 * block (ADR 027); under `vite dev` the block is absent and it is fetched, unsigned, before the first render.
 * Checked by hand rather than with ClientConfigSchema to keep zod out of the first-load bundle.
 */
export const CLIENT_CONFIG_URL = '/svc/client-config'

let current: ClientConfig | null = null

export function isClientConfig(value: unknown): value is ClientConfig {
  if (!isRecord(value)) return false
  const { env, services, apps, signSecret, wechat, chat } = value
  return (
    (env === 'development' || env === 'production') &&
    typeof signSecret === 'string' &&
    isRecord(services) &&
    ['main', 'search', 'push'].every((k) => typeof services[k] === 'string') &&
    isRecord(apps) &&
    isAppPair(apps.h5) &&
    isAppPair(apps.search) &&
    (wechat === null ||
      (isRecord(wechat) &&
        typeof wechat.appId === 'string' &&
        typeof wechat.authorizeUrl === 'string')) &&
    isRecord(chat) &&
    typeof chat.agentId === 'string'
  )
}

function isAppPair(value: unknown): boolean {
  return isRecord(value) && typeof value.id === 'string' && typeof value.key === 'string'
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

export async function loadClientConfig(
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  inlined: unknown = inlinedData(CLIENT_CONFIG_GLOBAL),
): Promise<ClientConfig> {
  if (isClientConfig(inlined)) {
    current = inlined
    return inlined
  }
  const res = await fetchImpl(CLIENT_CONFIG_URL, { credentials: 'include' })
  const body: unknown = await res.json()
  const data = isRecord(body) ? body.data : undefined
  if (!res.ok || !isClientConfig(data)) {
    throw new Error(`client configuration unavailable (HTTP ${res.status})`)
  }
  current = data
  return data
}

export function getClientConfig(): ClientConfig {
  if (!current) throw new Error('client configuration not loaded yet')
  return current
}

/** For tests and for a host page that already holds the configuration. */
export function setClientConfig(config: ClientConfig): void {
  current = config
}
