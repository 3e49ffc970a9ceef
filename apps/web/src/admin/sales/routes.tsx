import { ThunderboltOutlined } from '@ant-design/icons'
import { lazy } from 'react'
import type { ConsoleGroup } from '../console/console-page'

/** The console's 销售 pages (issue 12); each entry names who may open it. */
export const SALES_GROUP: ConsoleGroup = {
  path: '/sales',
  name: '销售',
  icon: <ThunderboltOutlined />,
  pages: [
    {
      path: 'live',
      name: '实时拍卖',
      roles: 'any',
      component: lazy(() => import('./live-page').then((m) => ({ default: m.LivePage }))),
    },
    {
      path: 'results',
      name: '结拍结果',
      roles: 'any',
      component: lazy(() => import('./results-page').then((m) => ({ default: m.ResultsPage }))),
    },
    {
      path: 'overdue',
      name: '逾期订单',
      roles: ['cashier', 'cataloguer'],
      component: lazy(() => import('./overdue-page').then((m) => ({ default: m.OverduePage }))),
    },
  ],
}
