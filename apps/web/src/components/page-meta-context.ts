import { createContext, useContext } from 'react'

export interface PageMeta {
  title: { zh: string; en: string }
  /** A tab root: no back arrow, the tab bar is shown. */
  tab: boolean
}

/** The meta of the route a page was rendered for; set once per route element by the router. */
export const PageMetaContext = createContext<PageMeta>({ title: { zh: '', en: '' }, tab: false })

export function usePageMeta(): PageMeta {
  return useContext(PageMetaContext)
}
