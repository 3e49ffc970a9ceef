import { AppstoreOutlined } from '@ant-design/icons'
import type { ConsoleGroup } from '../console/console-page'

/** The console's 拍卖目录 pages (issue 12); each entry names who may open it. */
export const CATALOGUE_GROUP: ConsoleGroup = {
  path: '/catalogue',
  name: '拍卖目录',
  icon: <AppstoreOutlined />,
  pages: [],
}
