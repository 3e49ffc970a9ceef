import { DownloadOutlined, InboxOutlined } from '@ant-design/icons'
import {
  LOT_IMPORT_COLUMN_NOTES,
  LOT_IMPORT_COLUMNS,
  type LotImportError,
  type LotImportResult,
} from '@numisma/contracts/staff-catalogue'
import { Alert, App, Button, Card, Input, Result, Select, Space, Table, Tag, Upload } from 'antd'
import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { inBackground } from '../../lib/background'
import { staffErrorMessage } from '../staff-api'
import { LOT_IMPORT_TEMPLATE_URL } from './api'
import { CSV_MAX_BYTES } from './format'
import styles from './lot-import-page.module.css'
import { useImportLots, useSpecials } from './queries'
import { CATALOGUE_TEXT as T } from './texts'

/** The last check: which special and text it judged, and what it found. */
interface Checked {
  specialId: number
  csv: string
  result: LotImportResult
}

const ERROR_COLUMNS = [
  { title: T.row, dataIndex: 'row', width: 72, align: 'center' as const },
  {
    title: T.field,
    dataIndex: 'field',
    width: 140,
    render: (field: string) => (field ? <code>{field}</code> : '—'),
  },
  {
    title: T.code,
    dataIndex: 'code',
    width: 190,
    render: (code: string) => <Tag color="red">{code}</Tag>,
  },
  { title: T.message, dataIndex: 'message' },
]

const NOTE_ROWS = LOT_IMPORT_COLUMNS.map((column) => ({
  column,
  note: LOT_IMPORT_COLUMN_NOTES[column],
}))

/**
 * 批量导入拍品: a CSV (file or pasted) checked row by row on the server first (a dry run: nothing
 * written), its errors listed by line and column; once a check passes, the same text is imported
 * as the special's next lots, all or none.
 */
export function LotImportPage() {
  const { message } = App.useApp()
  const [params, setParams] = useSearchParams()
  const specialId = Number(params.get('special')) || undefined
  const specials = useSpecials({ status: 'all', pageSize: 100 })
  const run = useImportLots()
  const [csv, setCsv] = useState('')
  const [fileName, setFileName] = useState<string | null>(null)
  const [checked, setChecked] = useState<Checked | null>(null)
  const [imported, setImported] = useState<LotImportResult | null>(null)

  const special = specials.data?.items.find((s) => s.id === specialId)
  // Once its first lot has closed a special takes no more lots (the server's rule, acceptsLots).
  const closed = special !== undefined && !special.acceptsLots
  const current = checked !== null && checked.csv === csv && checked.specialId === specialId
  const passed = current && checked.result.errors.length === 0 && !closed

  const submit = async (dryRun: boolean) => {
    if (specialId === undefined || closed) return
    try {
      const result = await run.mutateAsync({ specialId, input: { csv, dryRun } })
      if (dryRun) setChecked({ specialId, csv, result })
      else {
        setImported(result)
        message.success(T.imported(result.lots.length))
      }
    } catch (error) {
      message.error(staffErrorMessage(error))
      setChecked(null)
    }
  }

  if (imported && specialId !== undefined) {
    return (
      <Card>
        <Result
          status="success"
          title={T.imported(imported.lots.length)}
          subTitle={`${special?.title ?? ''} · ${T.lotNo} ${imported.lots
            .map((l) => l.lotNo)
            .join('、')}`}
          extra={[
            <Link key="view" to={`/catalogue/specials/${specialId}`}>
              <Button type="primary">{T.viewSpecial}</Button>
            </Link>,
            <Button
              key="again"
              onClick={() => {
                setImported(null)
                setChecked(null)
                setCsv('')
                setFileName(null)
              }}
            >
              {T.importAgain}
            </Button>,
          ]}
        />
      </Card>
    )
  }

  return (
    <div className={styles.page}>
      <Card
        className={styles.main}
        title={T.lotImport}
        extra={
          <Button icon={<DownloadOutlined />} href={LOT_IMPORT_TEMPLATE_URL}>
            {T.downloadTemplate}
          </Button>
        }
      >
        <div className={styles.field}>
          <span className={styles.label}>{T.chooseSpecial}</span>
          <Select
            className={styles.special}
            showSearch
            optionFilterProp="label"
            placeholder={T.chooseSpecialPlaceholder}
            loading={specials.isPending}
            value={specialId}
            onChange={(id: number) => setParams({ special: String(id) })}
            options={(specials.data?.items ?? []).map((s) => ({
              value: s.id,
              label: `${s.title}（${T.specialStatus[s.status]} · ${s.lotCount} 件）`,
              disabled: !s.acceptsLots,
            }))}
          />
        </div>
        {closed && (
          <Alert className={styles.closed} type="error" showIcon message={T.specialClosedImport} />
        )}
        <Upload.Dragger
          className={styles.dragger}
          accept=".csv,text/csv"
          maxCount={1}
          showUploadList={false}
          beforeUpload={(file) => {
            if (file.size > CSV_MAX_BYTES) {
              message.error(T.fileTooLarge)
              return Upload.LIST_IGNORE
            }
            inBackground(
              file.text().then((text) => {
                setCsv(text)
                setFileName(file.name)
              }),
            )
            return false
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{fileName ?? T.uploadCsv}</p>
          <p className="ant-upload-hint">{T.uploadHint}</p>
        </Upload.Dragger>
        <Input.TextArea
          className={styles.csv}
          rows={7}
          value={csv}
          placeholder={T.pasteHere}
          onChange={(event) => {
            setCsv(event.target.value)
            setFileName(null)
          }}
          data-testid="lot-import-csv"
        />
        <Space className={styles.actions}>
          <Button
            onClick={() => inBackground(submit(true))}
            loading={run.isPending && run.variables.input.dryRun}
            disabled={specialId === undefined || closed || csv.trim() === ''}
          >
            {T.check}
          </Button>
          <Button
            type="primary"
            onClick={() => inBackground(submit(false))}
            loading={run.isPending && !run.variables.input.dryRun}
            disabled={!passed}
          >
            {T.import}
          </Button>
          {!passed && !closed && <span className={styles.muted}>{T.checkFirst}</span>}
        </Space>
        {checked && !current && <Alert type="warning" showIcon message={T.changedSinceCheck} />}
        {checked && current && (
          <div className={styles.result}>
            {passed ? (
              <Alert type="success" showIcon message={T.rowsOk(checked.result.rowCount)} />
            ) : (
              <>
                <Alert
                  type="error"
                  showIcon
                  message={T.rowsBad(checked.result.rowCount, checked.result.errors.length)}
                />
                <Table<LotImportError>
                  className={styles.errors}
                  size="small"
                  rowKey={(e) => `${e.row}:${e.field}:${e.code}`}
                  columns={ERROR_COLUMNS}
                  dataSource={checked.result.errors}
                  pagination={
                    checked.result.errors.length > 10
                      ? { pageSize: 10, showSizeChanger: false }
                      : false
                  }
                />
              </>
            )}
          </div>
        )}
      </Card>
      <Card className={styles.notes} title={T.columns} size="small">
        <Table
          size="small"
          rowKey="column"
          pagination={false}
          dataSource={NOTE_ROWS}
          columns={[
            {
              title: T.column,
              dataIndex: 'column',
              width: 120,
              render: (column: string) => <code>{column}</code>,
            },
            { title: T.meaning, dataIndex: 'note' },
          ]}
        />
      </Card>
    </div>
  )
}
