import type { LightMyRequestResponse } from 'fastify'
import { StaffRepository } from '../../src/modules/staff/repository'
import { StaffService } from '../../src/modules/staff/service'
import type { Session, TestApp } from './app'

export type StaffCall = (
  method: 'GET' | 'POST',
  path: string,
  payload?: object,
) => Promise<LightMyRequestResponse>

/**
 * Signs the bootstrap staff account in (creating it with a known password) and returns a caller
 * for `/svc/main/admin…` with its session cookie.
 */
export async function staffCaller(t: TestApp): Promise<StaffCall> {
  const password = 'staff-test-password'
  await new StaffService(new StaffRepository(t.database.db), t.clock).bootstrap(password)
  const login = await t.inject({
    method: 'POST',
    url: '/svc/main/admin/login',
    payload: { username: 'admin', password },
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
