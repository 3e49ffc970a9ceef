import { PrinterOutlined } from '@ant-design/icons'
import { PageContainer } from '@ant-design/pro-components'
import { PICKUP_SLOTS } from '@numisma/contracts/delivery'
import { Button, Result, Select, Space, Spin, Typography } from 'antd'
import { useMemo } from 'react'
import { createPortal } from 'react-dom'
import { Link, useSearchParams } from 'react-router'
import { inBackground } from '../../lib/background'
import { DayBar } from './day-bar'
import { chinaToday, pickListRequestOf, pickListSearch } from './format'
import styles from './pick-list-page.module.css'
import { PickSheets } from './pick-sheets'
import { usePickList } from './queries'
import { FULFIL_TEXT as T } from './texts'

const ALL = 'all'

/**
 * 拣货单: a day's pickups and cash bookings (of one slot or all), or the express shipments chosen
 * on 待发货, as A4 sheets. 打印 prints a copy kept outside the console's frame: in print the frame
 * (#root) is hidden and only that copy shows.
 */
export function PickListPage() {
  const [search, setSearch] = useSearchParams()
  const request = useMemo(() => pickListRequestOf(search, chinaToday()), [search])
  const list = usePickList(request)
  const byDay = !('shipmentIds' in request)

  return (
    <PageContainer
      title={T.pickListPage}
      extra={
        <Button
          type="primary"
          icon={<PrinterOutlined />}
          disabled={!list.data}
          onClick={() => window.print()}
          data-testid="print"
        >
          {T.print}
        </Button>
      }
    >
      <Space direction="vertical" size="middle" className={styles.stack}>
        {byDay ? (
          <DayBar
            date={request.date}
            onChange={(date) => setSearch(pickListSearch({ date, slot: request.slot }))}
          >
            <Typography.Text>{T.slot}</Typography.Text>
            <Select
              className={styles.slot}
              value={request.slot ?? ALL}
              options={[
                { value: ALL, label: T.allSlots },
                ...PICKUP_SLOTS.map((slot) => ({ value: slot, label: slot })),
              ]}
              onChange={(slot: string) =>
                setSearch(
                  pickListSearch({ date: request.date, slot: slot === ALL ? undefined : slot }),
                )
              }
            />
          </DayBar>
        ) : (
          <Space>
            <Typography.Text>{T.selectedShipments(request.shipmentIds.length)}</Typography.Text>
            <Link to={`/fulfilment/pick-lists${pickListSearch({ date: chinaToday() })}`}>
              {T.backToDay}
            </Link>
          </Space>
        )}
        {list.isError && (
          <Result
            status="error"
            title={T.loadFailed}
            subTitle={list.error.message}
            extra={<Button onClick={() => inBackground(list.refetch())}>{T.retry}</Button>}
          />
        )}
        {list.isPending && <Spin />}
        {list.data && (
          <div className={styles.preview} data-testid="pick-list">
            <div className={styles.paper}>
              <PickSheets list={list.data} />
            </div>
          </div>
        )}
      </Space>
      {list.data &&
        createPortal(
          <div className={styles.printCopy}>
            <PickSheets list={list.data} />
          </div>,
          document.body,
        )}
    </PageContainer>
  )
}
