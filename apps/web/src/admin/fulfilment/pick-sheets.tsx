import { formatFen } from '@numisma/contracts/money'
import type { PickList, PickSheet } from '@numisma/contracts/staff-fulfilment'
import { addressLine, formatChinaTime, itemNumber, itemSpecial } from './format'
import styles from './pick-sheets.module.css'
import { FULFIL_TEXT as T } from './texts'

const KIND_NAMES = { express: T.sheetExpress, pickup: T.sheetPickup, booking: T.sheetBooking }

/**
 * A pick list as paper: one A4 sheet per shipment or booking (a page break between them), each
 * with the house, the day, the buyer (mobile masked), where it goes or when it is fetched, and
 * every item with its special and number, grade and certificate and a box to tick.
 */
export function PickSheets({ list }: { list: PickList }) {
  if (list.sheets.length === 0) {
    return (
      <section className={styles.sheet}>
        <ListHeader list={list} index={0} />
        <p className={styles.empty}>{T.noSheets}</p>
      </section>
    )
  }
  return list.sheets.map((sheet, index) => (
    <section
      key={`${sheet.kind}-${sheet.id}`}
      className={styles.sheet}
      data-testid="pick-sheet"
      data-kind={sheet.kind}
      data-id={sheet.id}
    >
      <ListHeader list={list} index={index + 1} />
      <SheetBody sheet={sheet} />
    </section>
  ))
}

function ListHeader({ list, index }: { list: PickList; index: number }) {
  return (
    <header className={styles.header}>
      <div>
        <div className={styles.house}>{list.house}</div>
        <div className={styles.title}>
          {T.pickListTitle} · {list.date}
          {list.slot !== null && ` ${list.slot}`}
        </div>
      </div>
      <div className={styles.headerMeta}>
        <div>
          {T.generatedAt} {formatChinaTime(list.generatedAt)}
        </div>
        {list.sheets.length > 0 && (
          <div>
            {index} / {T.sheetCount(list.sheets.length)}
          </div>
        )}
      </div>
    </header>
  )
}

function SheetBody({ sheet }: { sheet: PickSheet }) {
  return (
    <>
      <div className={styles.facts}>
        <div className={styles.kind}>
          {KIND_NAMES[sheet.kind]} · {sheet.kind === 'booking' ? T.bookingNo : T.shipmentNo}{' '}
          {sheet.id}
        </div>
        <dl className={styles.fields}>
          <dt>{T.buyer}</dt>
          <dd>
            {sheet.buyerDisplay} {sheet.buyerMobile}
          </dd>
          {sheet.address && (
            <>
              <dt>{T.recipient}</dt>
              <dd>
                {sheet.address.name} {sheet.address.mobile}
              </dd>
              <dt>{T.address}</dt>
              <dd>{addressLine(sheet.address)}</dd>
            </>
          )}
          {sheet.date !== null && (
            <>
              <dt>{T.counterSlot}</dt>
              <dd>
                {sheet.date} {sheet.slot}
              </dd>
            </>
          )}
          {sheet.cash !== null && (
            <>
              <dt>{T.cash}</dt>
              <dd>¥{formatFen(sheet.cash)}</dd>
            </>
          )}
          {sheet.insured && sheet.declaredValue !== null && (
            <>
              <dt>{T.insuredValue}</dt>
              <dd>¥{formatFen(sheet.declaredValue)}</dd>
            </>
          )}
        </dl>
      </div>
      <table className={styles.items}>
        <thead>
          <tr>
            <th className={styles.tick}>{T.picked}</th>
            <th>{T.item}</th>
            <th>{T.number}</th>
            <th>{T.gradeCert}</th>
            <th className={styles.qty}>{T.quantityHead}</th>
          </tr>
        </thead>
        <tbody>
          {sheet.items.map((item) => (
            <tr key={item.orderId} data-testid="pick-item">
              <td className={styles.tick}>
                <span className={styles.box} aria-hidden="true" />
              </td>
              <td>{item.title}</td>
              <td className={styles.number}>
                <div>{itemSpecial(item, T)}</div>
                <div className={styles.nowrap}>{itemNumber(item, T)}</div>
              </td>
              <td>
                {[item.grade, item.certNo && T.cert(item.gradingService, item.certNo)]
                  .filter(Boolean)
                  .join(' · ') || T.none}
              </td>
              <td className={styles.qty}>{item.quantity}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <footer className={styles.signatures}>
        <span>{T.packer}：</span>
        <span>{T.checker}：</span>
      </footer>
    </>
  )
}
