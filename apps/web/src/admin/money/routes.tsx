import { AccountBookOutlined } from '@ant-design/icons'
import { lazy } from 'react'
import type { ConsoleGroup } from '../console/console-page'

/** The console's 财务 pages (issue 12); each entry names who may open it. */
export const MONEY_GROUP: ConsoleGroup = {
  owner: 'cashier',
  path: '/money',
  name: '财务',
  icon: <AccountBookOutlined />,
  pages: [
    {
      path: 'remittances',
      name: '汇款确认',
      roles: ['cashier'],
      component: lazy(() =>
        import('./remittances-page').then((m) => ({ default: m.RemittancesPage })),
      ),
    },
    {
      path: 'withdrawals',
      name: '提现',
      roles: ['cashier'],
      component: lazy(() =>
        import('./withdrawals-page').then((m) => ({ default: m.WithdrawalsPage })),
      ),
    },
    {
      path: 'accounts',
      name: '用户账户',
      roles: ['cashier'],
      component: lazy(() => import('./accounts-page').then((m) => ({ default: m.AccountsPage }))),
    },
    {
      path: 'refunds',
      name: '退款',
      roles: ['cashier'],
      component: lazy(() => import('./refunds-page').then((m) => ({ default: m.RefundsPage }))),
    },
    {
      path: 'ledger',
      name: '日账报表',
      roles: ['cashier'],
      component: lazy(() =>
        import('./ledger-report-page').then((m) => ({ default: m.LedgerReportPage })),
      ),
    },
  ],
}
