import { CarOutlined } from '@ant-design/icons'
import type { ConsoleGroup } from '../console/console-page'

/** The console's 履约 pages (issue 12); each entry names who may open it. */
export const FULFILMENT_GROUP: ConsoleGroup = {
  path: '/fulfilment',
  name: '履约',
  icon: <CarOutlined />,
  pages: [],
}
