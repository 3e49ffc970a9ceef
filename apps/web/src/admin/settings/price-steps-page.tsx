import { DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import { formatFen } from '@numisma/contracts/money'
import { checkIncrementTable } from '@numisma/domain/increment-table'
import { nextAmount, stepAt, type PriceStep } from '@numisma/domain/increments'
import { Alert, App, Button, Card, Form, InputNumber, Skeleton, Typography } from 'antd'
import { useEffect } from 'react'
import { inBackground } from '../../lib/background'
import { staffErrorMessage } from '../staff-api'
import { fenOf, yuanOf } from './format'
import styles from './price-steps-page.module.css'
import { usePriceSteps, useReplacePriceSteps } from './queries'
import { SETTINGS_TEXT as T } from './texts'

interface Row {
  from?: number | null
  step?: number | null
}

const toSteps = (rows: readonly Row[]): PriceStep[] =>
  rows.map((r) => ({ from: fenOf(r.from ?? 0), step: fenOf(r.step ?? 0) }))

/** The first few bids a table allows from each band's start, so staff see the grid they set. */
function examples(steps: readonly PriceStep[]): string[] {
  return steps.map((band) => {
    let x = Math.max(band.from, stepAt(0, steps))
    const amounts: string[] = []
    for (let i = 0; i < 4; i++) {
      amounts.push(formatFen(x, 0))
      x = nextAmount(x, steps)
    }
    return T.example(formatFen(band.from, 0), amounts.join('、'))
  })
}

/** 加价阶梯: the increment table, replaced whole; the domain's rule checks it as it is typed. */
export function PriceStepsPage() {
  const { message } = App.useApp()
  const current = usePriceSteps()
  const replace = useReplacePriceSteps()
  const [form] = Form.useForm<{ rows: Row[] }>()
  const rows = Form.useWatch('rows', form) ?? []
  const steps = toSteps(rows)
  const check = checkIncrementTable(steps)

  useEffect(() => {
    if (current.data) {
      form.setFieldsValue({
        rows: current.data.map((s) => ({ from: yuanOf(s.from), step: yuanOf(s.step) })),
      })
    }
  }, [current.data, form])

  const save = async () => {
    try {
      await replace.mutateAsync({ steps })
      message.success(T.replaced)
    } catch (error) {
      message.error(staffErrorMessage(error))
    }
  }

  if (current.isPending) return <Skeleton active />

  return (
    <div className={styles.layout}>
      <Card title={T.priceSteps}>
        <Typography.Paragraph type="secondary">{T.stepsHelp}</Typography.Paragraph>
        <Form form={form} onFinish={() => inBackground(save())}>
          <div className={styles.head}>
            <span />
            <span>{T.from}</span>
            <span>{T.step}</span>
            <span />
          </div>
          <Form.List name="rows">
            {(fields, { add, remove }) => (
              <>
                {fields.map((field, index) => (
                  <div key={field.key} className={styles.row}>
                    <span className={styles.index}>{T.row(index + 1)}</span>
                    <Form.Item
                      name={[field.name, 'from']}
                      rules={[{ required: true }]}
                      className={styles.cell}
                    >
                      <InputNumber
                        min={0}
                        precision={2}
                        style={{ width: '100%' }}
                        aria-label={`${T.row(index + 1)} ${T.from}`}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'step']}
                      rules={[{ required: true }]}
                      className={styles.cell}
                    >
                      <InputNumber
                        min={0.01}
                        precision={2}
                        style={{ width: '100%' }}
                        aria-label={`${T.row(index + 1)} ${T.step}`}
                      />
                    </Form.Item>
                    <Button
                      type="text"
                      icon={<DeleteOutlined />}
                      aria-label={T.removeRow}
                      title={T.removeRow}
                      disabled={fields.length <= 1}
                      onClick={() => remove(field.name)}
                    />
                  </div>
                ))}
                <div className={styles.footer}>
                  <Button icon={<PlusOutlined />} onClick={() => add({})}>
                    {T.addRow}
                  </Button>
                  <Button
                    type="primary"
                    htmlType="submit"
                    loading={replace.isPending}
                    disabled={!check.ok}
                  >
                    {T.replaceTable}
                  </Button>
                </div>
              </>
            )}
          </Form.List>
        </Form>
      </Card>
      <Card title={T.examples}>
        {check.ok ? (
          examples(steps).map((line) => (
            <div key={line} className={styles.example}>
              {line}
            </div>
          ))
        ) : (
          <Alert
            type="error"
            showIcon
            message={`${T.row(check.row + 1)}：${T.problems[check.problem]}`}
          />
        )}
      </Card>
    </div>
  )
}
