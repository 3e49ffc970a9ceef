import { SettingOutlined } from '@ant-design/icons'
import type { ConsoleGroup } from '../console/console-page'

/** The console's 系统 pages (issue 12); each entry names who may open it. */
export const SYSTEM_GROUP: ConsoleGroup = {
  path: '/system',
  name: '系统',
  icon: <SettingOutlined />,
  pages: [],
}
