import { useState, type RefObject } from 'react'
import {
  ADDRESS_DETAIL,
  ADDRESS_NAME,
  CHINA,
  isMainland,
  MAINLAND_MOBILE,
  OVERSEAS_MOBILE,
  type Address,
  type AddressInput,
} from '@numisma/contracts/address'
import {
  Button,
  CascadePicker,
  Form,
  Input,
  Picker,
  Switch,
  TextArea,
  type CascadePickerOption,
  type PickerRef,
} from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { PageLoading } from '../../../components/page-loading'
import { afterSaveTarget, readAddressFlow } from '../../../lib/address/address-flow'
import { useAddress, useAddresses, useSaveAddress } from '../../../lib/address/addresses'
import { useCitiesOf, useCountries, useProvinces } from '../../../lib/address/regions'
import { isNotFound } from '../../../lib/api-client'
import { inBackground } from '../../../lib/background'
import { positiveId } from '../../../lib/query-param'
import { showSuccess } from '../../../lib/toast'
import styles from './address-edit-page.module.css'

interface AddressValues {
  name: string
  mobile: string
  country: string[]
  /** [provinceId, cityId?] for China. */
  region: string[]
  detail: string
  isDefault: boolean
}

const valuesOf = (address: Address | undefined, firstAddress: boolean): AddressValues => ({
  name: address?.name ?? '',
  mobile: address?.mobile ?? '',
  country: [address?.countryId ?? CHINA],
  region: [address?.provinceId, address?.cityId].filter((id): id is string => !!id),
  detail: address?.detail ?? '',
  isDefault: address?.isDefault ?? firstAddress,
})

/**
 * /address/edit (`?id=` to change one, none to add): recipient, mobile, country, then province →
 * city for China, street address and the default switch. Saving goes back to the list, or to the
 * caller (`from`), with the new address when it was picking one (`select=1`).
 */
export function AddressEditPage() {
  const [params] = useSearchParams()
  const id = positiveId(params.get('id'))
  const address = useAddress(id)
  const addresses = useAddresses()
  const { t } = useTranslation()

  // A new address waits for the list: the first one becomes the default whatever the switch says.
  const waiting = id === undefined ? !addresses.data && !addresses.isError : !address.data
  if (waiting) {
    return (
      <PageFrame bodyClassName={styles.body}>
        {address.isError && isNotFound(address.error) ? (
          <EmptyState description={t('address.notFound')} />
        ) : address.isError ? (
          <LoadFailed onRetry={() => address.refetch()} />
        ) : (
          <PageLoading />
        )}
      </PageFrame>
    )
  }
  return (
    <AddressForm
      key={id ?? 'new'}
      id={id}
      initial={valuesOf(address.data, addresses.data?.length === 0)}
      defaultLocked={address.data?.isDefault === true || addresses.data?.length === 0}
    />
  )
}

function AddressForm({
  id,
  initial,
  defaultLocked,
}: {
  id: number | undefined
  initial: AddressValues
  /** The default stays the default; a first address becomes it anyway. */
  defaultLocked: boolean
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const flow = readAddressFlow(params)
  const [form] = Form.useForm<AddressValues>()
  const save = useSaveAddress()
  const countries = useCountries()
  const countryId = (Form.useWatch('country', form) ?? initial.country)[0] ?? CHINA
  const region = Form.useWatch('region', form) ?? initial.region
  const inChina = countryId === CHINA
  const provinces = useProvinces(inChina ? CHINA : undefined)
  // The province browsed in the open picker, whose cities load as it is chosen.
  const [browsing, setBrowsing] = useState<string | undefined>()
  // An empty picker opens on the first province, so its cities are there before any scrolling.
  const opensOn = region[0] ?? provinces.data?.[0]?.id
  const provinceIds = [...new Set([opensOn, browsing].filter((p): p is string => !!p))]
  const cities = useCitiesOf(provinceIds)

  const options: CascadePickerOption[] = (provinces.data ?? []).map((province) => ({
    label: province.name,
    value: province.id,
    children: cities.get(province.id)?.map((city) => ({ label: city.name, value: city.id })),
  }))

  const send = async (values: AddressValues) => {
    const country = values.country[0] ?? CHINA
    const china = country === CHINA
    const input: AddressInput = {
      name: values.name.trim(),
      mobile: values.mobile.trim(),
      countryId: country,
      provinceId: china ? (values.region[0] ?? null) : null,
      cityId: china ? (values.region[1] ?? null) : null,
      detail: values.detail.trim(),
      isDefault: values.isDefault,
    }
    try {
      const saved = await save.mutateAsync({ id, input })
      showSuccess(t('address.saved'))
      await navigate(afterSaveTarget(flow, saved.id), { replace: true })
    } catch {
      // request() has toasted the server's reason (a field, the limit…).
    }
  }

  const openPicker = (_event: unknown, ref: RefObject<PickerRef | null>) => ref.current?.open()

  return (
    <PageFrame bodyClassName={styles.body}>
      <Form
        form={form}
        layout="horizontal"
        mode="card"
        className={styles.form}
        initialValues={initial}
        data-testid="address-form"
        onValuesChange={(changed: Partial<AddressValues>) => {
          // Another country: the province and city chosen for the last one no longer apply.
          if (changed.country) form.setFieldValue('region', [])
        }}
        onFinish={(values: AddressValues) => inBackground(send(values))}
        footer={
          <Button
            block
            type="submit"
            color="primary"
            shape="rounded"
            loading={save.isPending}
            data-testid="address-save"
          >
            {t('address.save')}
          </Button>
        }
      >
        <Form.Item
          name="name"
          label={t('address.name')}
          rules={[
            {
              required: true,
              whitespace: true,
              max: ADDRESS_NAME.max,
              message: t('address.nameInvalid'),
            },
          ]}
        >
          <Input
            placeholder={t('address.namePlaceholder')}
            maxLength={ADDRESS_NAME.max}
            data-testid="address-name"
          />
        </Form.Item>
        <Form.Item
          name="mobile"
          label={t('address.mobile')}
          required
          dependencies={['country', 'region']}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const mobile = (value ?? '').trim()
                if (isMainland({ countryId, provinceId: region[0] ?? null })) {
                  if (!MAINLAND_MOBILE.test(mobile)) throw new Error(t('address.mobileInvalid'))
                } else if (!OVERSEAS_MOBILE.test(mobile)) {
                  throw new Error(t('address.phoneInvalid'))
                }
              },
            },
          ]}
        >
          <Input
            type="tel"
            inputMode="tel"
            placeholder={t('address.mobilePlaceholder')}
            maxLength={21}
            data-testid="address-mobile"
          />
        </Form.Item>
        <Form.Item
          name="country"
          label={t('address.country')}
          required
          trigger="onConfirm"
          arrowIcon
          onClick={openPicker}
        >
          <Picker
            columns={[(countries.data ?? []).map((c) => ({ label: c.name, value: c.id }))]}
            loading={!countries.data}
            data-testid="address-country-picker"
            confirmText={t('common.confirm')}
            cancelText={t('common.cancel')}
          >
            {(items) => (
              <span data-testid="address-country">
                {items[0]?.label ?? (
                  <span className={styles.placeholder}>{t('address.countryPlaceholder')}</span>
                )}
              </span>
            )}
          </Picker>
        </Form.Item>
        <Form.Item
          name="region"
          label={t('address.region')}
          required
          trigger="onConfirm"
          hidden={!inChina}
          arrowIcon
          onClick={openPicker}
          dependencies={['country']}
          rules={[
            {
              validator: async (_rule, value: string[] | undefined) => {
                if (!inChina) return
                const [provinceId, cityId] = value ?? []
                const known = provinceId ? cities.get(provinceId) : undefined
                if (
                  !provinceId ||
                  (cityId === undefined && (known === undefined || known.length > 0))
                ) {
                  throw new Error(t('address.regionRequired'))
                }
              },
            },
          ]}
        >
          <CascadePicker
            options={options}
            loading={!provinces.data}
            title={t('address.regionPlaceholder')}
            confirmText={t('common.confirm')}
            cancelText={t('common.cancel')}
            onSelect={(value) => setBrowsing(value[0] === null ? undefined : String(value[0]))}
            data-testid="address-region-picker"
          >
            {(items) => {
              const labels = items.flatMap((item) =>
                typeof item?.label === 'string' ? [item.label] : [],
              )
              return (
                <span data-testid="address-region">
                  {labels.length > 0 ? (
                    labels.join(' ')
                  ) : (
                    <span className={styles.placeholder}>{t('address.regionPlaceholder')}</span>
                  )}
                </span>
              )
            }}
          </CascadePicker>
        </Form.Item>
        <Form.Item
          name="detail"
          label={t('address.detail')}
          rules={[
            {
              required: true,
              whitespace: true,
              min: ADDRESS_DETAIL.min,
              max: ADDRESS_DETAIL.max,
              message: t('address.detailInvalid'),
            },
          ]}
        >
          <TextArea
            placeholder={t('address.detailPlaceholder')}
            maxLength={ADDRESS_DETAIL.max}
            autoSize={{ minRows: 2, maxRows: 4 }}
            data-testid="address-detail"
          />
        </Form.Item>
        <Form.Item
          name="isDefault"
          label={t('address.makeDefault')}
          valuePropName="checked"
          childElementPosition="right"
          className={styles.switchRow}
        >
          <Switch disabled={defaultLocked} data-testid="address-default-switch" />
        </Form.Item>
      </Form>
    </PageFrame>
  )
}
