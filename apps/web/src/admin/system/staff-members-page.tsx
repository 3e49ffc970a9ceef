import { PlusOutlined } from '@ant-design/icons'
import {
  ModalForm,
  ProFormCheckbox,
  ProFormText,
  ProTable,
  type ProColumns,
} from '@ant-design/pro-components'
import { STAFF_ROLES, type StaffMember, type StaffRole } from '@numisma/contracts/staff'
import { App, Button, Popconfirm, Space, Tag } from 'antd'
import { inBackground } from '../../lib/background'
import { staffErrorMessage } from '../staff-api'
import { useStaffSession } from '../staff-queries'
import { ROLE_NAMES } from '../texts'
import { useCreateStaffMember, useStaffMembers, useUpdateStaffMember } from './queries'
import { SYSTEM_TEXT as T } from './texts'

const roleOptions = STAFF_ROLES.map((role) => ({ label: ROLE_NAMES[role], value: role }))
const rolesRule = { required: true, message: T.rolesRequired }

/** Staff accounts (admin): open one with its roles, change roles, reset a password, disable. */
export function StaffMembersPage() {
  const members = useStaffMembers()
  const create = useCreateStaffMember()
  const update = useUpdateStaffMember()
  const self = useStaffSession().data
  const { message } = App.useApp()

  const change = async (
    member: StaffMember,
    body: Parameters<typeof update.mutateAsync>[0]['change'],
  ) => {
    try {
      await update.mutateAsync({ id: member.id, change: body })
      message.success(T.saved)
      return true
    } catch (error) {
      message.error(staffErrorMessage(error))
      return false
    }
  }

  const columns: ProColumns<StaffMember>[] = [
    { title: T.username, dataIndex: 'username' },
    {
      title: T.roles,
      dataIndex: 'roles',
      render: (_, member) => (
        <Space size={4} wrap>
          {member.roles.map((role) => (
            <Tag key={role} color={role === 'admin' ? 'red' : 'default'}>
              {ROLE_NAMES[role]}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      title: T.status,
      dataIndex: 'disabled',
      render: (_, member) =>
        member.disabled ? <Tag>{T.disabled}</Tag> : <Tag color="green">{T.enabled}</Tag>,
    },
    { title: T.createdAt, dataIndex: 'createdAt', valueType: 'dateTime' },
    {
      title: T.actions,
      valueType: 'option',
      render: (_, member) => [
        <ModalForm<{ roles: StaffRole[] }>
          key="roles"
          title={`${T.editRoles} · ${member.username}`}
          width={420}
          trigger={<a>{T.editRoles}</a>}
          initialValues={{ roles: member.roles }}
          modalProps={{ destroyOnHidden: true }}
          onFinish={(values) => change(member, { roles: values.roles })}
        >
          <ProFormCheckbox.Group
            name="roles"
            label={T.roles}
            options={roleOptions}
            rules={[rolesRule]}
          />
        </ModalForm>,
        <ModalForm<{ password: string }>
          key="password"
          title={`${T.resetPassword} · ${member.username}`}
          width={420}
          trigger={<a>{T.resetPassword}</a>}
          modalProps={{ destroyOnHidden: true }}
          onFinish={(values) => change(member, { password: values.password })}
        >
          <ProFormText.Password
            name="password"
            label={T.newPassword}
            extra={T.passwordHelp}
            rules={[{ required: true, min: 10, message: T.passwordHelp }]}
          />
        </ModalForm>,
        member.id === self?.staffId ? null : member.disabled ? (
          <a key="enable" onClick={() => inBackground(change(member, { disabled: false }))}>
            {T.enable}
          </a>
        ) : (
          <Popconfirm
            key="disable"
            title={T.disableConfirm}
            onConfirm={() => inBackground(change(member, { disabled: true }))}
          >
            <a>{T.disable}</a>
          </Popconfirm>
        ),
      ],
    },
  ]

  return (
    <ProTable<StaffMember>
      headerTitle={T.members}
      rowKey="id"
      search={false}
      options={false}
      pagination={false}
      loading={members.isPending}
      dataSource={members.data}
      columns={columns}
      toolBarRender={() => [
        <ModalForm<{ username: string; password: string; roles: StaffRole[] }>
          key="new"
          title={T.newMember}
          width={460}
          trigger={
            <Button type="primary" icon={<PlusOutlined />}>
              {T.newMember}
            </Button>
          }
          modalProps={{ destroyOnHidden: true }}
          onFinish={async (values) => {
            try {
              await create.mutateAsync(values)
              message.success(T.created)
              return true
            } catch (error) {
              message.error(staffErrorMessage(error))
              return false
            }
          }}
        >
          <ProFormText
            name="username"
            label={T.username}
            extra={T.usernameHelp}
            rules={[{ required: true, pattern: /^[a-z0-9_.-]{2,32}$/, message: T.usernameHelp }]}
          />
          <ProFormText.Password
            name="password"
            label={T.password}
            extra={T.passwordHelp}
            rules={[{ required: true, min: 10, message: T.passwordHelp }]}
          />
          <ProFormCheckbox.Group
            name="roles"
            label={T.roles}
            options={roleOptions}
            rules={[rolesRule]}
          />
        </ModalForm>,
      ]}
    />
  )
}
