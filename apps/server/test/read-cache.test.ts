import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { dataSchema } from '@numisma/contracts/api'
import { LotDetailSchema, SpecialDetailSchema } from '@numisma/contracts/catalog'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CATALOGUE_TTL_MS, SETTINGS_TTL_MS } from '../src/modules/catalog/cached-reads'
import { FakeClock } from '../src/platform/clock'
import { InProcessEventBus } from '../src/platform/event-bus'
import { PreparedBody, ReadCache, ReadCacheBus, watchLots } from '../src/platform/read-cache'
import { createLot, creditDeposit } from './helpers/auction'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { staffCaller } from './helpers/mall-orders'

const databases = await testDatabases()
const YUAN = 100
const ORIGINAL = '民国三年袁世凯像壹圆'

describe('ReadCache', () => {
  it('keeps a fill, shares concurrent misses, and drops an entry on its tag or its TTL', async () => {
    const clock = new FakeClock(1_000)
    const cache = new ReadCache<number>({ clock, ttlMs: 100 })
    let fills = 0
    const fill = () => Promise.resolve({ value: ++fills, tags: ['lot:1'] })
    expect(await Promise.all([cache.get('a', fill), cache.get('a', fill)])).toEqual([1, 1])
    expect(await cache.get('a', fill)).toBe(1)
    cache.invalidate('lot:2')
    expect(await cache.get('a', fill)).toBe(1)
    cache.invalidate('lot:1')
    expect(await cache.get('a', fill)).toBe(2)
    clock.advance(100)
    expect(await cache.get('a', fill)).toBe(3)
  })

  it('does not keep a fill its tag was invalidated during (it may have read before the change)', async () => {
    const cache = new ReadCache<string>({ clock: new FakeClock(0), ttlMs: 1_000 })
    let release!: () => void
    const slow = cache.get(
      'k',
      () =>
        new Promise((resolve) => {
          release = () => resolve({ value: 'before', tags: ['lot:7'] })
        }),
    )
    cache.invalidate('lot:7')
    release()
    expect(await slow).toBe('before')
    expect(await cache.get('k', () => Promise.resolve({ value: 'after', tags: ['lot:7'] }))).toBe(
      'after',
    )
  })

  it('never hands a read that came after an invalidation the value of a fill started before it', async () => {
    const cache = new ReadCache<string>({ clock: new FakeClock(0), ttlMs: 1_000 })
    let release!: (v: string) => void
    const slow = () =>
      new Promise<{ value: string; tags: string[] }>((resolve) => {
        release = (value) => resolve({ value, tags: ['lot:1'] })
      })
    // A fill starts and reads P1, slowly; a reader joins it before anything changed.
    const first = cache.get('lot:1', slow)
    const joined = cache.get('lot:1', () => Promise.resolve({ value: 'unused', tags: ['lot:1'] }))
    // The bid commits and its publish invalidates; the bidder, answered P2, reads at once.
    cache.invalidate('lot:1')
    let refills = 0
    const fresh = () => {
      refills++
      return Promise.resolve({ value: 'P2', tags: ['lot:1'] })
    }
    const after = [cache.get('lot:1', fresh), cache.get('lot:1', fresh)]
    release('P1')
    // Reads from before the invalidation may get either; those after get P2, from one fill.
    expect(await first).toBe('P1')
    expect(await joined).toBe('P1')
    expect(await Promise.all(after)).toEqual(['P2', 'P2'])
    expect(refills).toBe(1)
    expect(await cache.get('lot:1', fresh)).toBe('P2')
    expect(refills).toBe(1)
  })

  it('still shares a fill with a read that came after an invalidation of another tag', async () => {
    const cache = new ReadCache<string>({ clock: new FakeClock(0), ttlMs: 1_000 })
    let release!: () => void
    const first = cache.get(
      'lot:1',
      () =>
        new Promise((resolve) => {
          release = () => resolve({ value: 'P1', tags: ['lot:1'] })
        }),
    )
    cache.invalidate('lot:2')
    const after = cache.get('lot:1', () => Promise.resolve({ value: 'refilled', tags: ['lot:1'] }))
    release()
    expect(await Promise.all([first, after])).toEqual(['P1', 'P1'])
  })

  it('forgets the tags of entries evicted, expired, replaced or invalidated (bounded memory)', async () => {
    const clock = new FakeClock(0)
    const cache = new ReadCache<number>({ clock, ttlMs: 1_000, maxEntries: 100 })
    // Client-chosen keys (search queries) all under one shared tag, and each under its own.
    for (let i = 0; i < 20_000; i++) {
      await cache.get(`q:${i}`, () => Promise.resolve({ value: i, tags: ['lots', `lot:${i}`] }))
    }
    expect(cache.size).toBeLessThanOrEqual(100)
    expect(cache.taggedKeys).toBeLessThanOrEqual(200)
    // Expired entries read again are replaced, not added to.
    clock.advance(1_000)
    for (let i = 19_950; i < 20_000; i++) {
      await cache.get(`q:${i}`, () => Promise.resolve({ value: -i, tags: ['lots', `lot:${i}`] }))
    }
    expect(cache.taggedKeys).toBeLessThanOrEqual(200)
    // Invalidating one tag leaves no key behind in the entries' other tags.
    cache.invalidate('lots')
    expect(cache.size).toBe(0)
    expect(cache.taggedKeys).toBe(0)
  })

  it('expires an entry when its data changes by the clock (validUntil)', async () => {
    const clock = new FakeClock(0)
    const cache = new ReadCache<string>({ clock, ttlMs: 1_000 })
    await cache.get('k', () => Promise.resolve({ value: 'live', tags: [], validUntil: 10 }))
    clock.advance(10)
    expect(await cache.get('k', () => Promise.resolve({ value: 'closed', tags: [] }))).toBe(
      'closed',
    )
  })

  it('ReadCacheBus tells a watcher of its own publishes before they leave', () => {
    const inner = new InProcessEventBus()
    inner.publish = () => undefined // a Redis bus: nothing comes back at once
    const bus = new ReadCacheBus(inner)
    const heard: number[] = []
    watchLots(bus, (e) => heard.push(e.lotId))
    bus.publish({
      type: 'lot',
      lotId: 5,
      price: 100,
      bidCount: 1,
      endsAt: new Date(0).toISOString(),
      status: 'live',
      leader: null,
    })
    expect(heard).toEqual([5])
  })

  it('PreparedBody compresses to the same JSON', () => {
    const body = PreparedBody.of({ data: 'x'.repeat(5000) })
    expect(brotliDecompressSync(body.br).toString()).toBe(body.json)
    expect(gunzipSync(body.gzip).toString()).toBe(body.json)
    expect(body.etag).toMatch(/^W\/"[\w-]+"$/)
  })
})

describe.each(databases)('catalogue read cache on $name', (kind) => {
  let t: TestApp
  let alice: Session
  const get = (path: string, headers: Record<string, string> = {}, as?: Session) =>
    t.call({ method: 'GET', path, headers, as })
  const search = (query: string) =>
    t.call({ method: 'GET', service: 'search', path: `/api/search/wechat?${query}` })
  const retitle = (lotId: number, title: string) =>
    t.database.db.updateTable('lots').set({ title }).where('id', '=', lotId).execute()
  const specialOf = async (lotId: number) =>
    (
      await t.database.db
        .selectFrom('lots')
        .select('special_id')
        .where('id', '=', lotId)
        .executeTakeFirstOrThrow()
    ).special_id

  beforeAll(async () => {
    t = await createTestApp(kind)
    alice = await t.signIn()
    await creditDeposit(t, alice.userId, 1_000_000 * YUAN)
  })
  afterAll(() => t.close())

  it('serves a lot, its special and the home list from the cache until the TTL (a staff edit elsewhere)', async () => {
    const lotId = await createLot(t)
    const specialId = await specialOf(lotId)
    const titles = async () => ({
      lot: (await get(`/auction/${lotId}`)).json().data.title,
      special: (await get(`/special/${specialId}`)).json().data.lots[0].title,
    })
    expect(await titles()).toEqual({ lot: ORIGINAL, special: ORIGINAL })
    await retitle(lotId, 'edited')
    expect(await titles()).toEqual({ lot: ORIGINAL, special: ORIGINAL })
    t.clock.advance(CATALOGUE_TTL_MS)
    expect(await titles()).toEqual({ lot: 'edited', special: 'edited' })
  })

  it("a staff edit through this instance's console shows at once in the lot and its special", async () => {
    const lotId = await createLot(t)
    const specialId = await specialOf(lotId)
    const titles = async () => ({
      lot: (await get(`/auction/${lotId}`)).json().data.title,
      special: (await get(`/special/${specialId}`)).json().data.lots[0].title,
    })
    expect(await titles()).toEqual({ lot: ORIGINAL, special: ORIGINAL })
    const cataloguer = await staffCaller(t, ['cataloguer'])
    const edit = await cataloguer('PUT', `/lots/${lotId}`, { title: '袁大头 三年' })
    expect(edit.statusCode).toBe(200)
    // No clock advance: the console's write cleared this instance's caches.
    expect(await titles()).toEqual({ lot: '袁大头 三年', special: '袁大头 三年' })
  })

  it('a bid shows at once in the lot, its special, the home list and the buying list', async () => {
    const lotId = await createLot(t)
    const specialId = await specialOf(lotId)
    const read = async () => ({
      lot: (await get(`/auction/${lotId}`)).json().data.price,
      special: (await get(`/special/${specialId}`)).json().data.lots[0].price,
      home: (await get('/special/V1')).json().data.find((s: { id: number }) => s.id === specialId)
        .bidCount,
      list: (await search(`type=auction&specialId=${specialId}`)).json().data[0].price,
    })
    expect(await read()).toEqual({ lot: null, special: null, home: 0, list: null })
    const bid = await t.call({
      method: 'POST',
      path: '/bidding/bid',
      as: alice,
      body: { lotId, amount: 1_000 * YUAN, proxy: false },
    })
    expect(bid.statusCode).toBe(200)
    // No clock advance: the bid's lot event dropped every cached copy.
    expect(await read()).toEqual({
      lot: 1_000 * YUAN,
      special: 1_000 * YUAN,
      home: 1,
      list: 1_000 * YUAN,
    })
  })

  it('answers If-None-Match with 304 and public, revalidated caching headers', async () => {
    const lotId = await createLot(t)
    const first = await get(`/auction/${lotId}`)
    expect(first.headers['cache-control']).toBe('public, no-cache')
    expect(first.headers.vary).toBe('X-App-Id, Accept-Encoding')
    const etag = String(first.headers.etag)
    expect(etag).toMatch(/^W\//)
    const again = await get(`/auction/${lotId}`, { 'if-none-match': etag })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    expect(again.headers.etag).toBe(etag)
    expect(again.headers['cache-control']).toBe('public, no-cache')
    await retitle(lotId, 'changed')
    t.clock.advance(CATALOGUE_TTL_MS)
    expect((await get(`/auction/${lotId}`, { 'if-none-match': etag })).statusCode).toBe(200)

    const categories = await get('/meta/@category')
    expect(categories.headers['cache-control']).toBe('public, max-age=10')
    expect(SETTINGS_TTL_MS).toBe(10_000)
    const list = await search('type=auction')
    expect(list.headers['cache-control']).toBe('public, no-cache')
    expect((await get('/pub/@time')).headers['cache-control']).toBe('no-store')
  })

  it("a signed-in caller's lot page is private, never stored, and has their own fields", async () => {
    const lotId = await createLot(t)
    await t.call({
      method: 'POST',
      path: '/bidding/bid',
      as: alice,
      body: { lotId, amount: 1_000 * YUAN, proxy: false },
    })
    const mine = await get(`/auction/${lotId}`, {}, alice)
    expect(mine.headers['cache-control']).toBe('private, no-store')
    expect(mine.headers.etag).toBeUndefined()
    expect(mine.json().data).toMatchObject({ leading: true, price: 1_000 * YUAN })
    const anonymous = await get(`/auction/${lotId}`)
    expect(anonymous.json().data).toMatchObject({ leading: false, myMax: null })
    // An unknown lot is still a 404 for both.
    expect((await get('/auction/99999999', {}, alice)).statusCode).toBe(404)
    expect((await get('/auction/99999999')).statusCode).toBe(404)
  })

  it('sends the body the response schema would have (precomputed serialisation), in br and gzip', async () => {
    const lotId = await createLot(t)
    const specialId = await specialOf(lotId)
    const lot = await get(`/auction/${lotId}`)
    expect(lot.json()).toEqual(dataSchema(LotDetailSchema).parse(lot.json()))
    const special = await get(`/special/${specialId}`)
    expect(special.json()).toEqual(dataSchema(SpecialDetailSchema).parse(special.json()))
    const mine = await get(`/auction/${lotId}`, {}, alice)
    expect(mine.json()).toEqual(dataSchema(LotDetailSchema).parse(mine.json()))

    const big = await get('/special/V1', { 'accept-encoding': 'gzip, deflate, br' })
    const plain = await get('/special/V1', { 'accept-encoding': 'identity' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    if (plain.body.length >= 1024) {
      expect(big.headers['content-encoding']).toBe('br')
      expect(brotliDecompressSync(big.rawPayload).toString()).toBe(plain.body)
      const gz = await get('/special/V1', { 'accept-encoding': 'gzip' })
      expect(gz.headers['content-encoding']).toBe('gzip')
      expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body)
    }
  })

  it('a lot closes on the page at its end, inside the TTL and without an event', async () => {
    const lotId = await createLot(t, { endsAt: t.clock.now() + 500 })
    expect((await get(`/auction/${lotId}`)).json().data.status).toBe('live')
    t.clock.advance(500)
    expect((await get(`/auction/${lotId}`)).json().data.status).toBe('unsold')
  })
})
