import { LogoutOutlined } from '@ant-design/icons'
import { ProLayout } from '@ant-design/pro-components'
import type { StaffAccess, StaffSession } from '@numisma/contracts/staff'
import { Button, Result, Spin, Tag } from 'antd'
import { Suspense, useMemo } from 'react'
import { Link, Navigate, Route, Routes, useLocation } from 'react-router'
import { useStaffLogout } from '../staff-queries'
import { ROLE_NAMES, TEXT } from '../texts'
import styles from './console-layout.module.css'
import { CONSOLE_GROUPS, landingPage, routedPages, visibleGroups } from './console-groups'
import { PageErrorBoundary } from './page-error-boundary'

/**
 * The console's frame (ProLayout): the menu of the pages the staff member's roles open, the signed
 * in name with its roles, and the page. `/admin` opens the first page of their own work.
 */
export function ConsoleLayout({ staff }: { staff: StaffSession }) {
  const location = useLocation()
  const logout = useStaffLogout()
  const groups = useMemo(() => visibleGroups(staff.roles), [staff.roles])
  const pages = useMemo(() => routedPages(groups), [groups])
  const route = useMemo(
    () => ({
      path: '/',
      routes: groups.map((group) => ({
        path: group.path,
        name: group.name,
        icon: group.icon,
        routes: group.pages.map((page) => ({
          path: `${group.path}/${page.path}`,
          name: page.name,
          hideInMenu: page.hidden === true,
        })),
      })),
    }),
    [groups],
  )
  const first = landingPage(groups, staff.roles)
  // Every page is routed: one the member's roles do not open says so, not "page not found".
  const closed = useMemo(() => {
    const open = new Set(pages.map((page) => page.fullPath))
    return routedPages(CONSOLE_GROUPS).filter((page) => !open.has(page.fullPath))
  }, [pages])

  return (
    <ProLayout
      title={TEXT.console}
      logo={false}
      layout="mix"
      fixSiderbar
      route={route}
      location={{ pathname: location.pathname }}
      menuItemRender={(item, dom) => (item.path ? <Link to={item.path}>{dom}</Link> : dom)}
      token={{ header: { colorHeaderTitle: '#8e1f1b' } }}
      actionsRender={() => [
        <span key="who" className={styles.who} data-testid="staff-username">
          {staff.username}
          {staff.roles.map((role) => (
            <Tag key={role} className={styles.role}>
              {ROLE_NAMES[role]}
            </Tag>
          ))}
        </span>,
        <Button
          key="logout"
          size="small"
          icon={<LogoutOutlined />}
          onClick={() => logout.mutate()}
          loading={logout.isPending}
        >
          {TEXT.signOut}
        </Button>,
      ]}
    >
      <PageErrorBoundary key={location.pathname}>
        <Suspense
          fallback={
            <div className={styles.loading}>
              <Spin />
            </div>
          }
        >
          <Routes>
            {pages.map((page) => (
              <Route key={page.fullPath} path={`${page.fullPath}/*`} element={<page.component />} />
            ))}
            {closed.map((page) => (
              <Route
                key={page.fullPath}
                path={`${page.fullPath}/*`}
                element={<Forbidden roles={page.roles} />}
              />
            ))}
            <Route
              path="/"
              element={first ? <Navigate to={first.fullPath} replace /> : <NoPages />}
            />
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </PageErrorBoundary>
    </ProLayout>
  )
}

function Forbidden({ roles }: { roles: StaffAccess }) {
  const names = roles === 'any' ? '' : roles.map((role) => ROLE_NAMES[role]).join('、')
  return (
    <div data-testid="console-forbidden">
      <Result status="403" title={TEXT.forbidden} subTitle={TEXT.forbiddenHelp(names)} />
    </div>
  )
}

function NoPages() {
  return <Result status="403" title={TEXT.noPages} />
}

function NotFound() {
  return (
    <Result
      status="404"
      title={TEXT.pageNotFound}
      extra={
        <Link to="/">
          <Button type="primary">{TEXT.backHome}</Button>
        </Link>
      }
    />
  )
}
