import type { SalesSpecial } from '@numisma/contracts/staff-sales'
import { formatChinaDate } from '@numisma/contracts/dates'
import { Select, Tag } from 'antd'
import { useEffect } from 'react'
import { useSearchParams } from 'react-router'
import { useSalesSpecials } from './queries'
import { specialEnd } from './sale-specials'
import styles from './special-picker.module.css'
import { SALE_STATE_TEXT, SALES_TEXT as T } from './texts'

const STATE_COLOR = { running: 'red', upcoming: 'blue', closed: 'default' } as const

/**
 * The special a sales page shows, kept in the address (`?special=12`) so a page can be shared and
 * reloaded; without one, the first the `fallback` picks from the list (running first).
 */
export function useChosenSpecial(
  fallback: (specials: SalesSpecial[]) => SalesSpecial | undefined = (list) => list[0],
) {
  const specials = useSalesSpecials()
  const [params, setParams] = useSearchParams()
  const fromAddress = Number(params.get('special'))
  const chosen = Number.isInteger(fromAddress) && fromAddress > 0 ? fromAddress : null
  const fallbackId = specials.data ? (fallback(specials.data)?.id ?? null) : null
  useEffect(() => {
    if (chosen === null && fallbackId !== null)
      setParams({ special: String(fallbackId) }, { replace: true })
  }, [chosen, fallbackId, setParams])
  return {
    specials,
    specialId: chosen ?? fallbackId,
    choose: (id: number) => setParams({ special: String(id) }),
  }
}

/** A picker of specials: state, title, lot count and real end (last lot's close), running first. */
export function SpecialPicker({
  specials,
  value,
  onChange,
  loading,
}: {
  specials: SalesSpecial[]
  value: number | null
  onChange: (id: number) => void
  loading?: boolean
}) {
  return (
    <Select
      className={styles.picker}
      data-testid="special-picker"
      value={value ?? undefined}
      onChange={onChange}
      loading={loading}
      placeholder={T.pickSpecial}
      notFoundContent={T.noSpecials}
      showSearch
      optionFilterProp="title"
      options={specials.map((s) => ({
        value: s.id,
        title: s.title,
        label: (
          <span className={styles.option}>
            <Tag color={STATE_COLOR[s.state]} className={styles.state}>
              {SALE_STATE_TEXT[s.state]}
            </Tag>
            <span className={styles.title}>{s.title}</span>
            <span className={styles.meta}>
              {T.lots(s.lotCount)} · {T.endsAtShort} {formatChinaDate(specialEnd(s), 'MM-DD HH:mm')}
            </span>
          </span>
        ),
      }))}
    />
  )
}
