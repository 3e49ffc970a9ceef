import { AppstoreOutlined } from '@ant-design/icons'
import { lazy } from 'react'
import type { ConsoleGroup } from '../console/console-page'

/** The console's 拍卖目录 pages (issue 12); each entry names who may open it, as its server routes. */
export const CATALOGUE_GROUP: ConsoleGroup = {
  owner: 'cataloguer',
  path: '/catalogue',
  name: '拍卖目录',
  icon: <AppstoreOutlined />,
  pages: [
    {
      path: 'specials',
      name: '专场管理',
      roles: ['cataloguer'],
      component: lazy(() => import('./specials-page').then((m) => ({ default: m.SpecialsPage }))),
    },
    {
      path: 'specials/:id',
      name: '专场详情',
      roles: ['cataloguer'],
      hidden: true,
      component: lazy(() => import('./special-page').then((m) => ({ default: m.SpecialPage }))),
    },
    {
      path: 'import',
      name: '批量导入拍品',
      roles: ['cataloguer'],
      component: lazy(() =>
        import('./lot-import-page').then((m) => ({ default: m.LotImportPage })),
      ),
    },
  ],
}
