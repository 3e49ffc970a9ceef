/** One label–value row of an item's facts (year, denomination, material…). */
export function ItemFact({ label, value }: { label: string; value: string }) {
  return (
    <div className="item-fact">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  )
}
