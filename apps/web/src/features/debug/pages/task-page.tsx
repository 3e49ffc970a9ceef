import { useState } from 'react'
import { Button, List, Tag } from 'antd-mobile'
import { COOKIE } from '@numisma/contracts/cookies'
import { useNavigate } from 'react-router'
import { browserCookies, clearAllCookies } from '../../../lib/cookies'
import { currentEnvironment } from '../../../lib/environment'
import { changeLanguage, useTranslation } from '../../../lib/i18n'
import { PageFrame } from '../../../components/page-frame'
import { PageActions } from '../../../components/page-actions'
import styles from './task-page.module.css'
import { inBackground } from '../../../lib/background'

export interface TaskRoute {
  path: string
  title: { zh: string; en: string }
  auth: boolean
  keepAlive: boolean
}

/** Tester's page (non-production only): who am I, where am I, and a link to every route. */
export function TaskPage({ routes }: { routes: readonly TaskRoute[] }) {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const [, rerender] = useState(0)
  const env = currentEnvironment()
  const none = t('debug.none')
  const english = i18n.language === 'en'

  return (
    <PageFrame>
      <List header={t('debug.environment')}>
        <List.Item extra={env.name}>{t('debug.environment')}</List.Item>
        <List.Item extra={browserCookies.get(COOKIE.deviceId) ?? none}>
          {t('debug.deviceId')}
        </List.Item>
        <List.Item extra={browserCookies.get(COOKIE.userId) ?? none}>{t('debug.userId')}</List.Item>
        <List.Item extra={i18n.language} onClick={() => changeLanguage(english ? 'zh-CN' : 'en')}>
          {t('debug.language')}
        </List.Item>
      </List>
      <PageActions>
        <Button
          block
          color="danger"
          fill="outline"
          onClick={() => {
            clearAllCookies()
            rerender((n) => n + 1)
          }}
        >
          {t('debug.clearCookies')}
        </Button>
      </PageActions>
      <List header={t('debug.routes')}>
        {routes
          .filter((r) => r.path !== '*' && r.path !== '/task')
          .map((r) => (
            <List.Item
              key={r.path}
              description={r.path}
              onClick={() => inBackground(navigate(r.path))}
              extra={
                <span className={styles.tags}>
                  {r.auth ? <Tag color="warning">{t('debug.auth')}</Tag> : null}
                  {r.keepAlive ? <Tag color="primary">{t('debug.kept')}</Tag> : null}
                </span>
              }
            >
              {english ? r.title.en : r.title.zh}
            </List.Item>
          ))}
      </List>
    </PageFrame>
  )
}
