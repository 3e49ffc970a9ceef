/**
 * Environments by host (spec §9): production, pre-release and test each have their own service
 * hosts; any other host (localhost, a LAN address) is the embedded development server, which serves
 * every role on its own origin under /svc/<role> (DESIGN §2).
 */
export type EnvironmentName = 'production' | 'pre-release' | 'test' | 'development'
export type ServiceRole = 'main' | 'search' | 'push'

export interface Environment {
  name: EnvironmentName
  /** Base URLs; relative ones are on the page's own origin. */
  services: Record<ServiceRole | 'bidding' | 'mall', string>
  /** Whether the debug console, refresh/logout buttons and /task are shown. */
  debugTools: boolean
}

export const PRODUCTION_HOST = 'm.numisma.cn'
export const PRE_RELEASE_HOST = 'pre.m.numisma.cn'
export const TEST_HOST = 'test.m.numisma.cn'

function hosted(name: EnvironmentName, domain: string): Environment {
  return {
    name,
    debugTools: name !== 'production',
    services: {
      main: `https://api.${domain}/svc/main`,
      search: `https://search.${domain}/svc/search`,
      push: `wss://push.${domain}/svc/push`,
      bidding: `https://api.${domain}/svc/main`,
      mall: `https://api.${domain}/svc/main`,
    },
  }
}

const EMBEDDED: Environment = {
  name: 'development',
  debugTools: true,
  services: {
    main: '/svc/main',
    search: '/svc/search',
    push: '/svc/push',
    bidding: '/svc/main',
    mall: '/svc/main',
  },
}

export function environmentForHost(host: string): Environment {
  const hostname = host.toLowerCase().replace(/:\d+$/, '')
  switch (hostname) {
    case PRODUCTION_HOST:
      return hosted('production', 'numisma.cn')
    case PRE_RELEASE_HOST:
      return hosted('pre-release', 'pre.numisma.cn')
    case TEST_HOST:
      return hosted('test', 'test.numisma.cn')
    default:
      return EMBEDDED
  }
}
