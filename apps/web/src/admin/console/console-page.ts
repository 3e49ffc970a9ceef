import type { StaffAccess, StaffRole } from '@numisma/contracts/staff'
import type { ComponentType, LazyExoticComponent, ReactNode } from 'react'

/** One page of the console: its path under /admin, its menu name, who may open it. */
export interface ConsolePage {
  /** Relative to the group's path: `specials` → `/admin/catalogue/specials`. */
  path: string
  name: string
  /** The same rule as the server's routes (contracts/staff `mayAccess`). */
  roles: StaffAccess
  component: LazyExoticComponent<ComponentType>
  /** Not in the menu (a detail page reached from a list), still routed. */
  hidden?: boolean
}

/** A menu group: one area of the house (catalogue, sales, money …). */
export interface ConsoleGroup {
  /** The role whose daily work this area is: `/admin` opens here for it. */
  owner?: StaffRole
  path: string
  name: string
  icon: ReactNode
  pages: ConsolePage[]
}
