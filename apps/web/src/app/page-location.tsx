import type { ReactNode } from 'react'
import { UNSAFE_LocationContext, useNavigationType, type Location } from 'react-router'

/**
 * Pins a page to the location it was rendered for. A kept-alive page stays mounted after the app
 * moves on, and without this its `useSearchParams()` would read the *new* URL: the hidden
 * /specialDetail?id=3 saw /productDetail?id=42 and asked for special 42 (→ 404 toast). KeepAlive
 * keeps each page's element as it was when last shown, so the location passed here is the page's
 * own. This is what react-router's `<Routes location>` does for a background route.
 */
export function PageLocation({ location, children }: { location: Location; children: ReactNode }) {
  const navigationType = useNavigationType()
  return (
    <UNSAFE_LocationContext value={{ location, navigationType }}>{children}</UNSAFE_LocationContext>
  )
}
