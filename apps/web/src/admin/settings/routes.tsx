import { ShopOutlined } from '@ant-design/icons'
import { lazy } from 'react'
import type { ConsoleGroup } from '../console/console-page'

/** The console's 商城与设置 pages (issue 12); each entry names who may open it. */
export const SETTINGS_GROUP: ConsoleGroup = {
  owner: 'cataloguer',
  path: '/settings',
  name: '商城与设置',
  icon: <ShopOutlined />,
  pages: [
    {
      path: 'mall-items',
      name: '商城商品',
      roles: ['cataloguer'],
      component: lazy(() =>
        import('./mall-items-page').then((m) => ({ default: m.MallItemsPage })),
      ),
    },
    {
      path: 'categories',
      name: '分类',
      roles: ['cataloguer'],
      component: lazy(() =>
        import('./categories-page').then((m) => ({ default: m.CategoriesPage })),
      ),
    },
    {
      path: 'banners',
      name: '首页横幅',
      roles: ['cataloguer'],
      component: lazy(() => import('./banners-page').then((m) => ({ default: m.BannersPage }))),
    },
    {
      path: 'coupons',
      name: '优惠券',
      roles: ['cataloguer'],
      component: lazy(() => import('./coupons-page').then((m) => ({ default: m.CouponsPage }))),
    },
    {
      path: 'price-steps',
      name: '加价阶梯',
      roles: ['cataloguer'],
      component: lazy(() =>
        import('./price-steps-page').then((m) => ({ default: m.PriceStepsPage })),
      ),
    },
  ],
}
