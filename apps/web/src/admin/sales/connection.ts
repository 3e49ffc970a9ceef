/**
 * How the live page's push socket stands, as the page words it: 连接中… until it first opens,
 * 实时更新中 while open, 连接中断 only once an open connection was lost, and 无法连接 when it has
 * never opened and an attempt failed. `idle` while nothing needs following (no socket is wanted).
 */
export type LiveConnection = 'idle' | 'connecting' | 'connected' | 'lost' | 'unreachable'

export function nextConnection(state: LiveConnection, event: 'open' | 'close'): LiveConnection {
  if (event === 'open') return 'connected'
  switch (state) {
    case 'connected':
    case 'lost':
      return 'lost'
    case 'idle':
    case 'connecting':
    case 'unreachable':
      return 'unreachable'
  }
}
