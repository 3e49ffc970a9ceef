import styles from './item-fact.module.css'

/** One label–value row of an item's facts (year, denomination, material…). */
export function ItemFact({ label, value }: { label: string; value: string }) {
  return (
    <div className={styles.fact}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  )
}
