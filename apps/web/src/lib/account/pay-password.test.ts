import { MutationObserver, QueryClient } from '@tanstack/react-query'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api-client'
import { ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import {
  getPayPasswordSettings,
  PAY_PASSWORD_SETTINGS_KEY,
  sendPayPasswordCode,
  setPayPassword,
  setPayPasswordMutationOptions,
  setPayPasswordRefusal,
} from './pay-password'
import { fakeServer as server, lastCall, resetFakeServer } from '../../test/fake-api-client'

vi.mock('../api-client', async (importOriginal) =>
  (await import('../../test/fake-api-client')).fakeApiClient(await importOriginal()),
)

beforeEach(resetFakeServer)
const stale = (queryClient: QueryClient, queryKey: readonly unknown[]) =>
  queryClient.getQueryState(queryKey)?.isInvalidated
const seeded = () => {
  const queryClient = new QueryClient()
  queryClient.setQueryData(PAY_PASSWORD_SETTINGS_KEY, {
    payPasswordSet: false,
    payLockedUntil: null,
  })
  queryClient.setQueryData(USER_STATISTICS_KEY, { payPasswordSet: false })
  queryClient.setQueryData([...ORDERS_KEY, 'pending'], [])
  return queryClient
}

describe('payment password calls', () => {
  it('reads the settings, checked by the contract', async () => {
    server.reply = { payPasswordSet: true, payLockedUntil: '2030-01-02T03:04:05.000Z' }
    expect(await getPayPasswordSettings()).toEqual(server.reply)
    expect(lastCall()).toMatchObject({ path: '/user/@accountSeting' })
    server.reply = { payPasswordSet: 'yes' }
    await expect(getPayPasswordSettings()).rejects.toThrow()
  })

  it('sets it with the proof given, showing refusals itself', async () => {
    server.reply = { payPasswordSet: true }
    await setPayPassword({ password: '864200', smsCode: '123456' })
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/user/@setPayPass',
      body: { password: '864200', smsCode: '123456' },
      silent: true,
    })
  })

  it('sends the SMS code through the passport call to the given mobile', async () => {
    server.reply = { sent: true, devCode: '123456' }
    expect(await sendPayPasswordCode('13800138000')).toEqual({ sent: true, devCode: '123456' })
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/passport/sms',
      body: { mobile: '13800138000' },
    })
  })

  it('refreshes the settings and the user centre after setting, and after a refusal', async () => {
    server.reply = { payPasswordSet: true }
    const done = seeded()
    await new MutationObserver(done, setPayPasswordMutationOptions(done)).mutate({
      password: '864200',
    })
    expect(stale(done, PAY_PASSWORD_SETTINGS_KEY)).toBe(true)
    expect(stale(done, USER_STATISTICS_KEY)).toBe(true)
    expect(stale(done, [...ORDERS_KEY, 'pending'])).toBe(false)

    // A wrong old password may have locked payment.
    const refusedClient = seeded()
    server.failure = new ApiError('PAY_PASSWORD_WRONG', 400, 'wrong', { triesLeft: 0 })
    await expect(
      new MutationObserver(refusedClient, setPayPasswordMutationOptions(refusedClient)).mutate({
        password: '864200',
        oldPassword: '000000',
      }),
    ).rejects.toThrow('wrong')
    expect(stale(refusedClient, PAY_PASSWORD_SETTINGS_KEY)).toBe(true)

    const offline = seeded()
    server.failure = new ApiError('OFFLINE', 0, 'offline')
    await expect(
      new MutationObserver(offline, setPayPasswordMutationOptions(offline)).mutate({
        password: '864200',
      }),
    ).rejects.toThrow('offline')
    expect(stale(offline, PAY_PASSWORD_SETTINGS_KEY)).toBe(false)
    expect(stale(offline, USER_STATISTICS_KEY)).toBe(false)
  })
})

describe('setPayPasswordRefusal', () => {
  const refusal = (code: string, details?: Record<string, unknown>, message = '服务端说明') =>
    setPayPasswordRefusal(new ApiError(code, 400, message, details), '提交失败')

  it('sends a wrong old password back to it, with the tries left when told', () => {
    expect(refusal('PAY_PASSWORD_WRONG', { triesLeft: 2 })).toEqual({
      kind: 'old-wrong',
      message: '服务端说明',
      triesLeft: 2,
    })
    expect(refusal('PAY_PASSWORD_WRONG', { triesLeft: 'x' })).toEqual({
      kind: 'old-wrong',
      message: '服务端说明',
    })
  })

  it('says until when payment is locked, when the time is readable', () => {
    expect(refusal('PAY_LOCKED', { until: '2030-01-02T03:04:05.000Z' })).toEqual({
      kind: 'locked',
      message: '服务端说明',
      until: '2030-01-02T03:04:05.000Z',
    })
    expect(refusal('PAY_LOCKED', { until: 'soon' })).toEqual({
      kind: 'locked',
      message: '服务端说明',
    })
  })

  it('names a wrong SMS code and a password set meanwhile; toasts the rest', () => {
    expect(refusal('SMS_CODE_INVALID').kind).toBe('code-wrong')
    expect(refusal('PAY_PASSWORD_PROOF_REQUIRED').kind).toBe('proof-required')
    expect(refusal('RATE_LIMITED')).toEqual({ kind: 'toast', message: '服务端说明' })
    expect(refusal('RATE_LIMITED', undefined, '')).toEqual({ kind: 'toast', message: '提交失败' })
    expect(setPayPasswordRefusal(new Error('boom'), '提交失败')).toEqual({
      kind: 'toast',
      message: '提交失败',
    })
    expect(setPayPasswordRefusal(new ApiError('OFFLINE', 0, 'offline'), '提交失败')).toEqual({
      kind: 'none',
    })
  })
})
