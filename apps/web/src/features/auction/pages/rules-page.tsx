import { useTranslation } from 'react-i18next'
import { PageFrame } from '../../../components/page-frame'

/** The bidding notice: static text, the same for everyone. */
export function RulesPage() {
  const { t } = useTranslation()
  const items = t('rules.items', { returnObjects: true })
  return (
    <PageFrame bodyClassName="rules-body">
      <article className="rules">
        <p className="rules-intro">{t('rules.intro')}</p>
        <ol className="rules-list">
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ol>
      </article>
    </PageFrame>
  )
}
