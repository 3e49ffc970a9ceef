import type { ShareInfo } from '@numisma/contracts/share'
import { useEffect, useMemo, useSyncExternalStore } from 'react'
import { useTranslation } from '../i18n'
import { useLocation } from 'react-router'
import { defaultShareInfo, toShareInfo, type PageShare } from './share-info'

/**
 * The share info pages have set, by page (path + query, the keep-alive key). Keyed rather than
 * "the current one" because kept-alive pages stay mounted while another is shown: the item page
 * left behind keeps its entry for when the collector comes back, and cannot overwrite the page now
 * on screen.
 */
export interface ShareStore {
  get(pageKey: string): ShareInfo | undefined
  set(pageKey: string, info: ShareInfo): void
  /** Removes the entry only if it is still this one (a newer page instance may own the key). */
  remove(pageKey: string, info: ShareInfo): void
  subscribe: (listener: () => void) => () => void
}

export function createShareStore(): ShareStore {
  const entries = new Map<string, ShareInfo>()
  const listeners = new Set<() => void>()
  const changed = () => {
    for (const listener of listeners) listener()
  }
  return {
    get: (pageKey) => entries.get(pageKey),
    set(pageKey, info) {
      if (sameInfo(entries.get(pageKey), info)) return
      entries.set(pageKey, info)
      changed()
    },
    remove(pageKey, info) {
      if (!sameInfo(entries.get(pageKey), info)) return
      entries.delete(pageKey)
      changed()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

function sameInfo(a: ShareInfo | undefined, b: ShareInfo): boolean {
  return (
    a !== undefined &&
    a.title === b.title &&
    a.desc === b.desc &&
    a.link === b.link &&
    a.imgUrl === b.imgUrl
  )
}

export const shareStore = createShareStore()

/** The page's origin; a stand-in on the server (app/first-screen-server.tsx), which never shares. */
function pageOrigin(): string {
  return typeof window === 'undefined' ? 'http://localhost' : window.location.origin
}

function pageUrl(pathname: string, search: string): string {
  return new URL(pathname + search, pageOrigin()).href
}

/**
 * A page says what sharing it offers (undefined while its data loads: the default stands in).
 * Reads the page's own location, which PageLocation pins for kept-alive pages.
 */
export function useShareInfo(share: PageShare | undefined): void {
  const { pathname, search } = useLocation()
  const pageKey = pathname + search
  // Built in the effect, not while rendering: the page URL needs the browser's origin, and the
  // server renders landing pages too (app/first-screen-server.tsx).
  useEffect(
    () => {
      if (!share) return
      const info = toShareInfo(share, pageUrl(pathname, search))
      shareStore.set(pageKey, info)
      return () => shareStore.remove(pageKey, info)
    },
    // By value: pages build a fresh object on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [share?.title, share?.desc, share?.imgUrl, pathname, search, pageKey],
  )
}

/** The share info of the page at this location: what it set, else the shop's default. */
export function useCurrentShareInfo(): ShareInfo {
  const { pathname, search } = useLocation()
  const { t, i18n } = useTranslation()
  const pageKey = pathname + search
  const snapshot = () => shareStore.get(pageKey)
  const set = useSyncExternalStore(shareStore.subscribe, snapshot, snapshot)
  const fallback = useMemo(
    () => defaultShareInfo(pageOrigin(), t),
    // t changes identity with the language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.language],
  )
  return set ?? fallback
}
