import { environmentForHost, type Environment } from '@numisma/contracts/environments'
import { getClientConfig } from './config'

/**
 * The environment of the page (spec §9, DESIGN §7): its host names the service addresses, and the
 * debug tools (console, refresh/logout buttons, /task) are on only where the host is not the
 * production one and the server was not started in production — a production server on an
 * operator's own domain serves none of them.
 */
export function currentEnvironment(): Environment {
  const byHost = environmentForHost(window.location.host)
  return { ...byHost, debugTools: debugToolsAllowed(byHost, getClientConfig().env) }
}

export function debugToolsAllowed(byHost: Environment, serverEnv: 'development' | 'production') {
  return byHost.debugTools && serverEnv !== 'production'
}
