import { mayAccess, type StaffRole } from '@numisma/contracts/staff'
import { CATALOGUE_GROUP } from '../catalogue/routes'
import { CHAT_GROUP } from '../chat-routes'
import { FULFILMENT_GROUP } from '../fulfilment/routes'
import { MONEY_GROUP } from '../money/routes'
import { SALES_GROUP } from '../sales/routes'
import { SETTINGS_GROUP } from '../settings/routes'
import { SYSTEM_GROUP } from '../system/routes'
import type { ConsoleGroup, ConsolePage } from './console-page'

/** The console's areas in menu order; each area's pages live in its own routes file. */
export const CONSOLE_GROUPS: ConsoleGroup[] = [
  CATALOGUE_GROUP,
  SETTINGS_GROUP,
  SALES_GROUP,
  MONEY_GROUP,
  FULFILMENT_GROUP,
  CHAT_GROUP,
  SYSTEM_GROUP,
]

export interface RoutedPage extends ConsolePage {
  /** Absolute within the console: `/catalogue/specials`. */
  fullPath: string
}

/** The groups and pages these roles may open (empty groups dropped). */
export function visibleGroups(roles: readonly StaffRole[]): ConsoleGroup[] {
  return CONSOLE_GROUPS.map((group) => ({
    ...group,
    pages: group.pages.filter((page) => mayAccess(roles, page.roles)),
  })).filter((group) => group.pages.length > 0)
}

export function routedPages(groups: ConsoleGroup[]): RoutedPage[] {
  return groups.flatMap((group) =>
    group.pages.map((page) => ({ ...page, fullPath: `${group.path}/${page.path}` })),
  )
}

/**
 * Where `/admin` opens: the first page of the first area one of the member's own roles works in
 * (a cashier's 财务, support's 客服), else — an admin, or a role without an area of its own — the
 * first page of the menu.
 */
export function landingPage(
  groups: readonly ConsoleGroup[],
  roles: readonly StaffRole[],
): RoutedPage | undefined {
  const owned = groups.find(
    (group) => group.owner !== undefined && group.owner !== 'admin' && roles.includes(group.owner),
  )
  const menu = routedPages([...groups]).filter((page) => page.hidden !== true)
  return (
    menu.find((page) => owned !== undefined && page.fullPath.startsWith(`${owned.path}/`)) ??
    menu[0]
  )
}
