import { SettingOutlined } from '@ant-design/icons'
import { lazy } from 'react'
import type { ConsoleGroup } from '../console/console-page'

/** The console's 系统 pages (issue 12); each entry names who may open it. */
export const SYSTEM_GROUP: ConsoleGroup = {
  owner: 'admin',
  path: '/system',
  name: '系统',
  icon: <SettingOutlined />,
  pages: [
    {
      path: 'staff',
      name: '员工账号',
      roles: ['admin'],
      component: lazy(() =>
        import('./staff-members-page').then((m) => ({ default: m.StaffMembersPage })),
      ),
    },
    {
      path: 'audit',
      name: '操作日志',
      roles: ['admin'],
      component: lazy(() => import('./audit-page').then((m) => ({ default: m.AuditPage }))),
    },
  ],
}
