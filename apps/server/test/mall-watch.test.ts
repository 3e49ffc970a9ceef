import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CatalogRepository } from '../src/modules/catalog/repository'
import { OrdersRepository } from '../src/modules/orders/repository'
import { transactor } from '../src/platform/transactions'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const databases = await testDatabases()

interface MallItemInput {
  productNo: string
  title?: string
  price?: number
  stock?: number
  onSale?: boolean
}

/** Mall items straight through the catalogue repository (test data builder). */
async function createMallItems(t: TestApp, items: MallItemInput[]): Promise<Map<string, number>> {
  const repo = new CatalogRepository(t.database.db)
  const now = t.clock.now()
  await repo.insertMallItems(
    items.map((item) => ({
      product_no: item.productNo,
      category_id: null,
      title: item.title ?? `熊猫银币1盎司 ${item.productNo}`,
      subtitle: '',
      description: '',
      images: '[]',
      grade_code: 0,
      grading_service: null,
      cert_no: null,
      year: '2015',
      denomination: '10元',
      material: '银',
      export_banned: 0,
      price: item.price ?? 30_000,
      stock: item.stock ?? 5,
      sold: 0,
      limit_per_user: null,
      on_sale: item.onSale === false ? 0 : 1,
      created_at: now,
    })),
  )
  const rows = await repo.allMallItems()
  return new Map(rows.map((r) => [r.product_no, r.id]))
}

describe.each(databases)('mall watch on $name', (kind) => {
  let t: TestApp
  let ids: Map<string, number>
  let ann: Session
  let ben: Session

  beforeAll(async () => {
    t = await createTestApp(kind)
    ids = await createMallItems(t, [
      { productNo: 'W1', price: 12_300, stock: 3 },
      { productNo: 'W2', stock: 0 },
      { productNo: 'W3', onSale: false },
    ])
    ann = await t.signIn()
    ben = await t.signIn()
  })
  afterAll(() => t.close())

  const watch = (productNo: string, as: Session) =>
    t.call({ method: 'POST', path: `/mall/attention/${productNo}`, as })
  const unwatch = (productNo: string, as: Session) =>
    t.call({ method: 'POST', path: `/mall/cancelAttention/${productNo}`, as })
  const watched = async (as: Session) => {
    const res = await t.call({ method: 'GET', path: '/user/auction/queryUserMallAttentions', as })
    expect(res.statusCode).toBe(200)
    return res.json<{ data: { productNo: string; [k: string]: unknown }[] }>().data
  }
  const detail = async (productNo: string, as?: Session) => {
    const res = await t.call({
      method: 'GET',
      path: `/mallproduct/getMallByProductNo/${productNo}`,
      as,
    })
    expect(res.statusCode).toBe(200)
    return res.json<{ data: { watched: boolean; boughtByMe: number } }>().data
  }

  // PostgreSQL only: SQLite has one writer and one connection, so nothing runs beside a purchase.
  it.skipIf(kind.name !== 'postgres')(
    'watches an item while a purchase of it holds the item row',
    async () => {
      const orders = new OrdersRepository(t.database.db, t.database.dialect)
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      let locked!: () => void
      const isLocked = new Promise<void>((resolve) => (locked = resolve))
      // What a purchase holds until it commits: the item's row lock and its stock update.
      const purchase = transactor(t.database)(async (tx) => {
        const item = await orders.lockMallItem(tx, 'W1')
        await orders.reserveStock(tx, item!.id, 1)
        locked()
        await held
        throw new Error('rolled back on purpose')
      }).catch(() => undefined)
      await isLocked
      // Inserting a watch checks its foreign key with a key-share lock on the item row; it must
      // not queue behind the purchase.
      const watching = watch('W1', ben)
      const answered = await Promise.race([
        watching.then((res) => res.statusCode),
        new Promise((resolve) => setTimeout(() => resolve('blocked'), 2_000)),
      ])
      release()
      await purchase
      await watching
      expect((await unwatch('W1', ben)).statusCode).toBe(200)
      expect(answered).toBe(200)
    },
  )

  it('needs a signed-in caller', async () => {
    for (const path of ['/mall/attention/W1', '/mall/cancelAttention/W1']) {
      const res = await t.call({ method: 'POST', path })
      expect(res.statusCode).toBe(401)
    }
    const list = await t.call({ method: 'GET', path: '/user/auction/queryUserMallAttentions' })
    expect(list.statusCode).toBe(401)
  })

  it('watches and unwatches idempotently, newest watch first', async () => {
    const first = await watch('W1', ann)
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({ data: { productNo: 'W1', watched: true } })
    t.clock.advance(1_000)
    expect((await watch('W3', ann)).json().data).toEqual({ productNo: 'W3', watched: true })
    t.clock.advance(1_000)
    expect((await watch('W2', ann)).statusCode).toBe(200)
    t.clock.advance(1_000)
    // Watching again neither duplicates the row nor moves it up the list.
    expect((await watch('W1', ann)).json().data).toEqual({ productNo: 'W1', watched: true })

    const list = await watched(ann)
    expect(list.map((i) => i.productNo)).toEqual(['W2', 'W3', 'W1'])
    expect(list[2]).toMatchObject({
      id: ids.get('W1'),
      productNo: 'W1',
      price: 12_300,
      stock: 3,
      onSale: true,
    })
    expect(list[1]).toMatchObject({ productNo: 'W3', onSale: false })
    expect(list[0]).toMatchObject({ productNo: 'W2', stock: 0, onSale: true })

    for (let i = 0; i < 2; i++) {
      const res = await unwatch('W3', ann)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ data: { productNo: 'W3', watched: false } })
    }
    expect((await watched(ann)).map((i) => i.productNo)).toEqual(['W2', 'W1'])
  })

  it('answers 404 for an unknown product number and 400 for a malformed one', async () => {
    for (const res of [await watch('NOPE', ann), await unwatch('NOPE', ann)]) {
      expect(res.statusCode).toBe(404)
      expect(res.json().code).toBe('NOT_FOUND')
    }
    const bad = await watch('bad%20no', ann)
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('VALIDATION_FAILED')
  })

  it("keeps each user's watches to themselves", async () => {
    expect(await watched(ben)).toEqual([])
    await watch('W2', ben)
    expect((await watched(ben)).map((i) => i.productNo)).toEqual(['W2'])
    // Ben leaving W2 does not touch Ann's watch on it.
    await unwatch('W2', ben)
    expect(await watched(ben)).toEqual([])
    expect((await watched(ann)).map((i) => i.productNo)).toEqual(['W2', 'W1'])
    expect((await detail('W2', ben)).watched).toBe(false)
    expect((await detail('W2', ann)).watched).toBe(true)
  })

  it('tells the item page whether the caller watches it; signed out, never', async () => {
    expect(await detail('W1', ann)).toMatchObject({ watched: true, boughtByMe: 0 })
    expect(await detail('W1')).toMatchObject({ watched: false, boughtByMe: 0 })
    await unwatch('W1', ann)
    expect((await detail('W1', ann)).watched).toBe(false)
  })

  it("counts the caller's units in orders that were not cancelled as boughtByMe", async () => {
    // Orders written directly: the purchase module's createOrder is not what is tested here.
    const order = (userId: string, productNo: string, quantity: number, status: string) => ({
      user_id: Number(userId),
      kind: 'mall',
      lot_id: null,
      mall_item_id: ids.get(productNo)!,
      quantity,
      amount: quantity * 12_300,
      fee: 0,
      total: quantity * 12_300,
      status,
      due_at: null,
      created_at: t.clock.now(),
      paid_at: null,
    })
    await t.database.db
      .insertInto('orders')
      .values([
        order(ann.userId, 'W1', 2, 'pending_payment'),
        order(ann.userId, 'W1', 1, 'paid'),
        order(ann.userId, 'W1', 5, 'cancelled'),
        order(ann.userId, 'W2', 4, 'completed'),
        order(ben.userId, 'W1', 3, 'paid'),
      ])
      .execute()
    expect((await detail('W1', ann)).boughtByMe).toBe(3)
    expect((await detail('W2', ann)).boughtByMe).toBe(4)
    expect((await detail('W1', ben)).boughtByMe).toBe(3)
    expect((await detail('W3', ann)).boughtByMe).toBe(0)
    expect((await detail('W1')).boughtByMe).toBe(0)
  })
})
