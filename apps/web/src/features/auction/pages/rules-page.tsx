import type { PriceStepRow } from '@numisma/contracts/bidding'
import { formatFen } from '@numisma/contracts/money'
import { Skeleton } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { PageFrame } from '../../../components/page-frame'
import { usePriceSteps } from '../api/get-price-steps'
import styles from './rules-page.module.css'

const yuan = (fen: number): string => formatFen(fen, 0)

/** The increment table as price ranges for reading, lowest first (`below` null at the top). */
function priceRanges(steps: readonly PriceStepRow[]) {
  const sorted = [...steps].sort((a, b) => a.from - b.from)
  return sorted.map((row, i) => ({ ...row, below: sorted[i + 1]?.from ?? null }))
}

/** 竞买须知: the increment table from the server and the rules of bidding (DESIGN §4). */
export function RulesPage() {
  const { t } = useTranslation()
  const steps = usePriceSteps()
  const items = t('rules.items', { returnObjects: true })
  return (
    <PageFrame>
      <article className={styles.rules}>
        <p className={styles.intro}>{t('rules.intro')}</p>
        <h2 className={styles.heading}>{t('rules.stepsTitle')}</h2>
        {/* Load failed only with nothing to show: a failed refetch keeps the last data. */}
        {steps.isPending ? (
          <Skeleton.Paragraph lineCount={6} animated />
        ) : steps.data === undefined ? (
          <p className={styles.muted}>{t('rules.stepsFailed')}</p>
        ) : (
          <table className={styles.steps} data-testid="price-steps">
            <thead>
              <tr>
                <th scope="col">{t('rules.stepsPrice')}</th>
                <th scope="col">{t('rules.stepsStep')}</th>
              </tr>
            </thead>
            <tbody>
              {priceRanges(steps.data).map((row) => (
                <tr key={row.from}>
                  <td>
                    {row.below === null
                      ? t('rules.rangeFrom', { from: yuan(row.from) })
                      : row.from === 0
                        ? t('rules.rangeBelow', { below: yuan(row.below) })
                        : t('rules.range', { from: yuan(row.from), to: yuan(row.below - 100) })}
                  </td>
                  <td className={styles.step}>{yuan(row.step)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className={styles.muted}>{t('rules.stepsNote')}</p>
        <h2 className={styles.heading}>{t('rules.itemsTitle')}</h2>
        <ol className={styles.list}>
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ol>
      </article>
    </PageFrame>
  )
}
