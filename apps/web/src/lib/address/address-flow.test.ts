import { describe, expect, it } from 'vitest'
import {
  afterSaveTarget,
  flowQuery,
  pickTarget,
  readAddressFlow,
  withAddressId,
} from './address-flow'

const flowOf = (query: string) => readAddressFlow(new URLSearchParams(query))

describe('address flow', () => {
  it('picks an address for a caller only in select mode with a same-origin caller', () => {
    const flow = flowOf(`select=1&from=${encodeURIComponent('/order/applySend?orderIds=3,4')}`)
    expect(flow).toEqual({ select: true, from: '/order/applySend?orderIds=3,4' })
    expect(pickTarget(flow, 9)).toBe('/order/applySend?orderIds=3%2C4&addressId=9')
    expect(afterSaveTarget(flow, 9)).toBe('/order/applySend?orderIds=3%2C4&addressId=9')
    expect(pickTarget(flowOf('select=1'), 9)).toBeNull()
    expect(flowOf('select=1&from=https://evil.example/')).toEqual({ select: true, from: '/' })
    expect(flowOf('select=1&from=//evil.example')).toMatchObject({ from: '/' })
  })

  it('goes back to the list, or to where it came from, after saving outside select mode', () => {
    expect(afterSaveTarget(flowOf(''), 9)).toBe('/address/list')
    expect(afterSaveTarget(flowOf('redirect=/ucenter'), 9)).toBe('/ucenter')
    expect(pickTarget(flowOf('from=/ucenter'), 9)).toBeNull()
  })

  it('replaces an addressId the caller already had and keeps its hash', () => {
    expect(withAddressId('/order/applySend?addressId=1#top', 2)).toBe(
      '/order/applySend?addressId=2#top',
    )
  })

  it('carries the flow from the list to the edit page', () => {
    const flow = flowOf(`select=1&from=${encodeURIComponent('/order/applySend?x=1')}`)
    expect(flowQuery(flow, { id: 5 })).toBe('?id=5&select=1&from=%2Forder%2FapplySend%3Fx%3D1')
    expect(flowQuery(flowOf(''))).toBe('')
  })
})
