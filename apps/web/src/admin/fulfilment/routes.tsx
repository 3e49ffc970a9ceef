import { CarOutlined } from '@ant-design/icons'
import { lazy } from 'react'
import type { ConsoleGroup } from '../console/console-page'

/** The console's 履约 pages (issue 12); each entry names who may open it, as its server routes. */
export const FULFILMENT_GROUP: ConsoleGroup = {
  owner: 'shipping',
  path: '/fulfilment',
  name: '履约',
  icon: <CarOutlined />,
  pages: [
    {
      path: 'shipments',
      name: '待发货',
      roles: ['shipping'],
      component: lazy(() => import('./shipments-page').then((m) => ({ default: m.ShipmentsPage }))),
    },
    {
      path: 'pickups',
      name: '自提',
      roles: ['shipping'],
      component: lazy(() => import('./pickups-page').then((m) => ({ default: m.PickupsPage }))),
    },
    {
      path: 'bookings',
      name: '柜台预约',
      roles: ['shipping', 'cashier'],
      component: lazy(() => import('./bookings-page').then((m) => ({ default: m.BookingsPage }))),
    },
    {
      path: 'pick-lists',
      name: '拣货单',
      roles: ['shipping', 'cashier'],
      component: lazy(() => import('./pick-list-page').then((m) => ({ default: m.PickListPage }))),
    },
  ],
}
