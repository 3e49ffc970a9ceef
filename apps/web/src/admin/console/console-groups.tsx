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
 * Where `/admin` opens: the first page made for one of the member's own roles (a cashier's money,
 * support's chat desk), else the first page they may open at all (an admin's, or pages for any).
 */
export function landingPage(
  pages: readonly RoutedPage[],
  roles: readonly StaffRole[],
): RoutedPage | undefined {
  const menu = pages.filter((page) => page.hidden !== true)
  const own = menu.find(
    (page) => page.roles !== 'any' && page.roles.some((role) => roles.includes(role)),
  )
  return own ?? menu[0]
}
