/**
 * The services one instance may serve (DESIGN §9, ADR 032): `main` (/svc/main/*, the web app, the
 * staff console, the sandboxes, the chat sockets and the interval jobs), `search` (/svc/search/*)
 * and `push` (the push WebSocket, /svc/push). Every instance answers /svc/health, /svc/ready and
 * /svc/client-config whatever its roles.
 */
export const ROLES = ['main', 'search', 'push'] as const
export type Role = (typeof ROLES)[number]

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value)

/**
 * ROLES as given ("main,push"; unset or blank: all three). A name that is not a role refuses the
 * start with a message naming it: a typo would otherwise leave a service silently unserved.
 */
export function parseRoles(value: string | undefined): Role[] {
  if (value === undefined || value.trim() === '') return [...ROLES]
  const names = value.split(',').map((name) => name.trim().toLowerCase())
  const unknown = names.filter((name) => !isRole(name))
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(
      `ROLES: unknown role ${unknown.map((name) => JSON.stringify(name)).join(', ')}; ` +
        `give a comma-separated list of ${ROLES.join(', ')}`,
    )
  }
  return ROLES.filter((role) => names.includes(role))
}
