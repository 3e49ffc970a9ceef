import { timeLineParts } from '../lib/chat/thread'

/** The time between two stretches of a chat thread: today's time, yesterday's, or the date. */
export function ChatTimeLine({ at, yesterday }: { at: string; yesterday: string }) {
  const { day, date, time } = timeLineParts(at)
  const text =
    day === 'today' ? time : day === 'yesterday' ? `${yesterday} ${time}` : `${date} ${time}`
  return <time dateTime={at}>{text}</time>
}
