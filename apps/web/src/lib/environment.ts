import { environmentForHost, type Environment } from '@numisma/contracts/environments'

/** The environment of the page's host (spec §9): decides debug tools and /task. */
export function currentEnvironment(): Environment {
  return environmentForHost(window.location.host)
}
