import { ArrowDownOutlined, ArrowUpOutlined, PlusOutlined } from '@ant-design/icons'
import { ModalForm, ProFormText, ProTable, type ProColumns } from '@ant-design/pro-components'
import type {
  CategoryInput,
  MallCategoryRename,
  StaffCategory,
} from '@numisma/contracts/staff-settings'
import { App, Button, Popconfirm, Tabs } from 'antd'
import type { ReactNode } from 'react'
import { inBackground } from '../../lib/background'
import { staffErrorMessage } from '../staff-api'
import styles from './categories-page.module.css'
import { categoryTree, moved, type CategoryNode } from './format'
import {
  useCategories,
  useCreateCategory,
  useCreateMallCategory,
  useDeleteCategory,
  useDeleteMallCategory,
  useMallCategories,
  useOrderCategories,
  useOrderMallCategories,
  useRenameMallCategory,
  useUpdateCategory,
} from './queries'
import { SETTINGS_TEXT as T } from './texts'

function useAttempt() {
  const { message } = App.useApp()
  return async (work: () => Promise<unknown>, done: string) => {
    try {
      await work()
      message.success(done)
      return true
    } catch (error) {
      message.error(staffErrorMessage(error))
      return false
    }
  }
}

function NameFields({ icon }: { icon?: boolean }) {
  return (
    <>
      <ProFormText name="name" label={T.name} rules={[{ required: true, max: 20 }]} />
      <ProFormText name="nameEn" label={T.nameEn} rules={[{ max: 40 }]} />
      {icon ? (
        <ProFormText name="icon" label={T.icon} extra={T.iconHelp} rules={[{ max: 20 }]} />
      ) : null}
    </>
  )
}

function NameForm<V extends object>(props: {
  title: string
  trigger: ReactNode
  initialValues?: Partial<V>
  icon?: boolean
  onFinish: (values: V) => Promise<boolean>
}) {
  return (
    <ModalForm<V>
      title={props.title}
      width={420}
      trigger={props.trigger}
      initialValues={props.initialValues}
      modalProps={{ destroyOnHidden: true }}
      onFinish={props.onFinish}
    >
      <NameFields icon={props.icon} />
    </ModalForm>
  )
}

function MoveButtons(props: { first: boolean; last: boolean; onMove: (by: -1 | 1) => void }) {
  return (
    <>
      <Button
        size="small"
        type="text"
        aria-label={T.moveUp}
        title={T.moveUp}
        icon={<ArrowUpOutlined />}
        disabled={props.first}
        onClick={() => props.onMove(-1)}
      />
      <Button
        size="small"
        type="text"
        aria-label={T.moveDown}
        title={T.moveDown}
        icon={<ArrowDownOutlined />}
        disabled={props.last}
        onClick={() => props.onMove(1)}
      />
    </>
  )
}

function AuctionCategories() {
  const attempt = useAttempt()
  const categories = useCategories()
  const create = useCreateCategory()
  const update = useUpdateCategory()
  const order = useOrderCategories()
  const remove = useDeleteCategory()
  const rows = categories.data ?? []
  const ids = rows.map((r) => r.id)

  const columns: ProColumns<StaffCategory>[] = [
    {
      title: T.sort,
      width: 80,
      render: (_, row, index) => (
        <MoveButtons
          first={index === 0}
          last={index === rows.length - 1}
          onMove={(by) =>
            inBackground(attempt(() => order.mutateAsync(moved(ids, index, by)), T.saved))
          }
        />
      ),
    },
    { title: T.name, dataIndex: 'name', width: 200 },
    {
      title: T.nameEn,
      dataIndex: 'nameEn',
      render: (_, row) => row.nameEn || <span className={styles.muted}>{T.none}</span>,
    },
    {
      title: T.icon,
      dataIndex: 'icon',
      width: 90,
      render: (_, row) => row.icon || <span className={styles.muted}>{T.none}</span>,
    },
    { title: T.lots, dataIndex: 'lots', align: 'right', width: 100 },
    {
      title: T.actions,
      valueType: 'option',
      width: 110,
      render: (_, row) => [
        <NameForm<CategoryInput>
          key="edit"
          title={`${T.edit} · ${row.name}`}
          trigger={<a>{T.edit}</a>}
          icon
          initialValues={row}
          onFinish={(values) =>
            attempt(() => update.mutateAsync({ id: row.id, input: values }), T.saved)
          }
        />,
        <Popconfirm
          key="delete"
          title={T.deleteConfirm}
          onConfirm={() => inBackground(attempt(() => remove.mutateAsync(row.id), T.deleted))}
        >
          <a>{T.delete}</a>
        </Popconfirm>,
      ],
    },
  ]

  return (
    <ProTable<StaffCategory>
      headerTitle={T.auctionCategories}
      rowKey="id"
      search={false}
      options={false}
      pagination={false}
      loading={categories.isPending}
      dataSource={rows}
      columns={columns}
      toolBarRender={() => [
        <NameForm<CategoryInput>
          key="new"
          title={T.newCategory}
          icon
          trigger={
            <Button type="primary" icon={<PlusOutlined />}>
              {T.newCategory}
            </Button>
          }
          onFinish={(values) => attempt(() => create.mutateAsync(values), T.created)}
        />,
      ]}
    />
  )
}

function MallCategories() {
  const attempt = useAttempt()
  const categories = useMallCategories()
  const create = useCreateMallCategory()
  const rename = useRenameMallCategory()
  const order = useOrderMallCategories()
  const remove = useDeleteMallCategory()
  const tree = categoryTree(categories.data ?? [])
  const siblingsOf = (node: CategoryNode): CategoryNode[] => {
    const find = (nodes: CategoryNode[]): CategoryNode[] | undefined =>
      nodes.some((n) => n.id === node.id)
        ? nodes
        : nodes.reduce<CategoryNode[] | undefined>(
            (found, n) => found ?? find(n.children ?? []),
            undefined,
          )
    return find(tree) ?? []
  }

  const columns: ProColumns<CategoryNode>[] = [
    { title: T.name, dataIndex: 'name', width: 320 },
    {
      title: T.nameEn,
      dataIndex: 'nameEn',
      render: (_, node) => node.nameEn || <span className={styles.muted}>{T.none}</span>,
    },
    {
      title: T.sort,
      width: 80,
      render: (_, node) => {
        const siblings = siblingsOf(node)
        const index = siblings.findIndex((s) => s.id === node.id)
        return (
          <MoveButtons
            first={index === 0}
            last={index === siblings.length - 1}
            onMove={(by) =>
              inBackground(
                attempt(
                  () =>
                    order.mutateAsync({
                      parentId: node.parentId,
                      ids: moved(
                        siblings.map((s) => s.id),
                        index,
                        by,
                      ),
                    }),
                  T.saved,
                ),
              )
            }
          />
        )
      },
    },
    { title: T.items, dataIndex: 'items', align: 'right', width: 100 },
    {
      title: T.actions,
      valueType: 'option',
      width: 220,
      render: (_, node) => [
        <NameForm<{ name: string; nameEn: string }>
          key="child"
          title={`${T.addChild} · ${node.path}`}
          trigger={<a>{T.addChild}</a>}
          onFinish={(values) =>
            attempt(() => create.mutateAsync({ ...values, parentId: node.id }), T.created)
          }
        />,
        <NameForm<MallCategoryRename>
          key="rename"
          title={`${T.rename} · ${node.path}`}
          trigger={<a>{T.rename}</a>}
          initialValues={node}
          onFinish={(values) =>
            attempt(() => rename.mutateAsync({ id: node.id, input: values }), T.saved)
          }
        />,
        <Popconfirm
          key="delete"
          title={T.deleteConfirm}
          onConfirm={() => inBackground(attempt(() => remove.mutateAsync(node.id), T.deleted))}
        >
          <a>{T.delete}</a>
        </Popconfirm>,
      ],
    },
  ]

  return (
    <ProTable<CategoryNode>
      headerTitle={T.mallCategories}
      rowKey="id"
      search={false}
      options={false}
      pagination={false}
      loading={categories.isPending}
      dataSource={tree}
      columns={columns}
      expandable={{ defaultExpandAllRows: true }}
      key={tree.length}
      toolBarRender={() => [
        <NameForm<{ name: string; nameEn: string }>
          key="new"
          title={T.newTopCategory}
          trigger={
            <Button type="primary" icon={<PlusOutlined />}>
              {T.newTopCategory}
            </Button>
          }
          onFinish={(values) =>
            attempt(() => create.mutateAsync({ ...values, parentId: null }), T.created)
          }
        />,
      ]}
    />
  )
}

/** 分类: the auction categories and the mall's category tree, a tab each. */
export function CategoriesPage() {
  return (
    <Tabs
      className={styles.tabs}
      items={[
        { key: 'auction', label: T.auctionCategories, children: <AuctionCategories /> },
        { key: 'mall', label: T.mallCategories, children: <MallCategories /> },
      ]}
    />
  )
}
