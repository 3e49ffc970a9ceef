import { AccountBookOutlined } from '@ant-design/icons'
import type { ConsoleGroup } from '../console/console-page'

/** The console's 财务 pages (issue 12); each entry names who may open it. */
export const MONEY_GROUP: ConsoleGroup = {
  path: '/money',
  name: '财务',
  icon: <AccountBookOutlined />,
  pages: [],
}
