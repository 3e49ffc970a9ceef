import type { StaffRole } from '@numisma/contracts/staff'
import type { LightMyRequestResponse } from 'fastify'
import { StaffService } from '../../src/modules/staff/service'
import type { Session, TestApp } from './app'

export type StaffCall = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  payload?: object,
) => Promise<LightMyRequestResponse>

let staffCounter = 0

/**
 * Signs a staff member in and returns a caller for `/svc/main/admin…` with its session cookie: the
 * bootstrap admin (created with a known password), or a new account holding only `roles`.
 */
export async function staffCaller(t: TestApp, roles?: StaffRole[]): Promise<StaffCall> {
  const password = 'staff-test-password'
  const service = StaffService.forDatabase(t.database, t.clock)
  await service.bootstrap(password)
  let username = 'admin'
  if (roles) {
    username = `staff-${process.pid}-${staffCounter++}`
    await service.create({ username, password, roles })
  }
  const login = await t.inject({
    method: 'POST',
    url: '/svc/main/admin/login',
    payload: { username, password },
  })
  const cookie = login.cookies.find((c) => c.name === 'staff_sid')?.value
  if (!cookie) throw new Error(`staff login failed: ${login.body}`)
  return (method, path, payload) =>
    t.inject({
      method,
      url: `/svc/main/admin${path}`,
      cookies: { staff_sid: cookie },
      ...(payload ? { payload } : {}),
    })
}

export interface MallItemInput {
  title?: string
  price?: number
  stock?: number
  categoryId?: number
  limitPerUser?: number
}

/** A mall item put up by staff (test data builder); returns its id and product number. */
export async function createMallItem(
  admin: StaffCall,
  input: MallItemInput = {},
): Promise<{ id: number; productNo: string }> {
  const res = await admin('POST', '/mall-items', {
    title: '中国人民银行发行钱币收藏册',
    price: 8_800,
    stock: 10,
    ...input,
  })
  if (res.statusCode !== 200) throw new Error(`mall item failed: ${res.body}`)
  return res.json<{ data: { id: number; productNo: string } }>().data
}

/** `POST /mallorder/createOrder` as a signed-in buyer. */
export function buy(
  t: TestApp,
  as: Session,
  body: { productNo: string; quantity: number; userCouponId?: number },
  headers?: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return t.call({ method: 'POST', path: '/mallorder/createOrder', as, body, headers })
}

/** Signs in `count` new users, a few at a time. */
export async function signInMany(t: TestApp, count: number): Promise<Session[]> {
  const users: Session[] = []
  while (users.length < count) {
    const batch = Math.min(10, count - users.length)
    users.push(...(await Promise.all(Array.from({ length: batch }, () => t.signIn()))))
  }
  return users
}
