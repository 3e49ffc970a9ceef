/**
 * Where the sign-in page may send the user back to: a same-origin path only. Anything else
 * (a full URL, a protocol-relative `//host`, a backslash trick, the sign-in page itself) gives '/'.
 */
export function safeRedirect(raw: string | null | undefined): string {
  if (!raw) return '/'
  const value = raw.trim()
  if (!value.startsWith('/') || value.startsWith('//')) return '/'
  // Browsers treat '\' like '/', so '/\evil.com' would leave the site; control characters are stripped by URL parsers.
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return '/'
  if (/^\/passport(?:\.html)?(?:[/?#]|$)/i.test(value)) return '/'
  return value
}
