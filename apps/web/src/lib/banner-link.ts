/**
 * Where a banner goes. Links are in-app paths (`/specialDetail?id=3`) followed with the router;
 * an absolute http(s) URL leaves the app; anything else (empty, `javascript:`…) does nothing.
 */
export type BannerTarget = { kind: 'route'; to: string } | { kind: 'external'; href: string } | null

export function bannerTarget(link: string | null | undefined): BannerTarget {
  const text = (link ?? '').trim()
  if (text === '') return null
  if (text.startsWith('/') && !text.startsWith('//')) return { kind: 'route', to: text }
  if (/^https?:\/\//i.test(text)) return { kind: 'external', href: text }
  return null
}
