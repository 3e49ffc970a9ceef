import { DatePicker, Space, Typography } from 'antd'
import dayjs from 'dayjs'
import type { ReactNode } from 'react'
import { useSearchParams } from 'react-router'
import { chinaToday } from './format'
import { FULFIL_TEXT as T } from './texts'

/** The day a counter page shows: `?date=` (today, China time, when absent or malformed). */
export function useCounterDate(): [string, (date: string) => void] {
  const [search, setSearch] = useSearchParams()
  const asked = search.get('date')
  const date = asked !== null && /^\d{4}-\d{2}-\d{2}$/.test(asked) ? asked : chinaToday()
  return [
    date,
    (next) =>
      setSearch((current) => {
        const copy = new URLSearchParams(current)
        copy.set('date', next)
        return copy
      }),
  ]
}

/** The day picker above a counter page, with what else belongs on its line. */
export function DayBar({
  date,
  onChange,
  children,
}: {
  date: string
  onChange: (date: string) => void
  children?: ReactNode
}) {
  return (
    <Space size="middle" wrap>
      <Typography.Text>{T.date}</Typography.Text>
      <DatePicker
        value={dayjs(date)}
        allowClear={false}
        data-testid="counter-date"
        onChange={(value) => {
          if (value) onChange(value.format('YYYY-MM-DD'))
        }}
      />
      {children}
    </Space>
  )
}
