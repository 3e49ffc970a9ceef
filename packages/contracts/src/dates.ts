/**
 * China-time dates of spec §5: a server date string containing "T" or "-" is UTC and is shown
 * shifted by +8 hours; other strings (e.g. "2026/11/21 18:00") are already China wall-clock time.
 * Epoch milliseconds are instants. Output never depends on the phone's own time zone.
 */
export const CHINA_OFFSET_MS = 8 * 60 * 60 * 1000

const WALL_CLOCK = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/

/** The China wall-clock time as a Date whose UTC fields hold it; null when unparseable. */
export function toChinaWallClock(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null
  if (value instanceof Date) return shift(value.getTime())
  if (typeof value === 'number') return Number.isFinite(value) ? shift(value) : null
  const text = value.trim()
  if (text.includes('T') || text.includes('-')) {
    const iso = text.includes('T') ? text : text.replace(' ', 'T')
    const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(iso) && iso.includes('T')
    const ms = Date.parse(hasZone ? iso : `${iso}Z`)
    return Number.isNaN(ms) ? null : shift(ms)
  }
  const m = WALL_CLOCK.exec(text)
  if (!m) return null
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m
  return new Date(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s))
}

function shift(ms: number): Date {
  return new Date(ms + CHINA_OFFSET_MS)
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0')

/** Formats with tokens YYYY MM DD HH mm ss. Unparseable input gives ''. */
export function formatChinaDate(
  value: string | number | Date | null | undefined,
  pattern = 'YYYY-MM-DD HH:mm:ss',
): string {
  const d = toChinaWallClock(value)
  if (!d) return ''
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => {
    switch (token) {
      case 'YYYY':
        return pad(d.getUTCFullYear(), 4)
      case 'MM':
        return pad(d.getUTCMonth() + 1)
      case 'DD':
        return pad(d.getUTCDate())
      case 'HH':
        return pad(d.getUTCHours())
      case 'mm':
        return pad(d.getUTCMinutes())
      default:
        return pad(d.getUTCSeconds())
    }
  })
}
