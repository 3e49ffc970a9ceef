import { ShopOutlined } from '@ant-design/icons'
import type { ConsoleGroup } from '../console/console-page'

/** The console's 商城与设置 pages (issue 12); each entry names who may open it. */
export const SETTINGS_GROUP: ConsoleGroup = {
  path: '/settings',
  name: '商城与设置',
  icon: <ShopOutlined />,
  pages: [],
}
