import { ThunderboltOutlined } from '@ant-design/icons'
import type { ConsoleGroup } from '../console/console-page'

/** The console's 销售 pages (issue 12); each entry names who may open it. */
export const SALES_GROUP: ConsoleGroup = {
  path: '/sales',
  name: '销售',
  icon: <ThunderboltOutlined />,
  pages: [],
}
