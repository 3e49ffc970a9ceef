import { CustomerServiceOutlined } from '@ant-design/icons'
import { lazy } from 'react'
import type { ConsoleGroup } from './console/console-page'

export const CHAT_GROUP: ConsoleGroup = {
  owner: 'support',
  path: '/support',
  name: '客服',
  icon: <CustomerServiceOutlined />,
  pages: [
    {
      path: 'chat',
      name: '客服工作台',
      roles: ['support'],
      component: lazy(() => import('./chat-desk-page').then((m) => ({ default: m.ChatDeskPage }))),
    },
  ],
}
