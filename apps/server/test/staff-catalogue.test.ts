import { AuditEntrySchema } from '@numisma/contracts/staff'
import {
  LotImportResultSchema,
  StaffLotSchema,
  StaffSpecialDetailSchema,
  StaffSpecialPageSchema,
  StaffSpecialSchema,
} from '@numisma/contracts/staff-catalogue'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CatalogRepository } from '../src/modules/catalog/repository'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { type StaffCall, staffCaller } from './helpers/mall-orders'

const databases = await testDatabases()
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const iso = (ms: number) => new Date(ms).toISOString()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const IdData = z.object({ id: z.number() })

describe.each(databases)('the console catalogue on $name', (kind) => {
  let t: TestApp
  let cataloguer: StaffCall
  let cashier: StaffCall
  let admin: StaffCall
  let bidder: Session
  let categoryId: number

  beforeAll(async () => {
    // Outside pictures only from the configured hosts (IMAGE_URL_HOSTS, issue 15).
    t = await createTestApp(kind, { imageHosts: ['b.example'] })
    cataloguer = await staffCaller(t, ['cataloguer'])
    cashier = await staffCaller(t, ['cashier'])
    admin = await staffCaller(t)
    bidder = await t.signIn()
    await creditDeposit(t, bidder.userId, 10_000_000)
    categoryId = await new CatalogRepository(t.database.db).insertCategory({
      name: '机制币',
      name_en: 'Machine-struck coins',
      icon: '',
      sort: 1,
    })
  })
  afterAll(() => t.close())

  /** The answer's data, checked against its contract. */
  const data = <T>(
    schema: z.ZodType<T>,
    res: { statusCode: number; json(): unknown; body: string },
  ): T => {
    expect(res.statusCode, res.body).toBe(200)
    return schema.parse((res.json() as { data: unknown }).data)
  }
  const auditOf = async (target: string) =>
    data(
      z.array(AuditEntrySchema),
      await admin('GET', `/audit?target=${encodeURIComponent(target)}`),
    )

  /** A special starting in an hour and ending in two, with `lots` lots added through the API. */
  async function special(lots: number, startsIn = HOUR): Promise<{ id: number; lotIds: number[] }> {
    const now = t.clock.now()
    const { id } = data(
      IdData,
      await cataloguer('POST', '/specials', {
        title: '机制币专场',
        startsAt: iso(now + startsIn),
        endsAt: iso(now + startsIn + HOUR),
        staggerSeconds: 30,
      }),
    )
    const lotIds: number[] = []
    for (let i = 0; i < lots; i++) {
      const lot = data(
        IdData,
        await cataloguer('POST', '/lots', {
          specialId: id,
          title: `光绪元宝 ${i + 1}`,
          startPrice: 100_000,
          reservePrice: 200_000,
          certNo: `C${i}`,
        }),
      )
      lotIds.push(lot.id)
    }
    return { id, lotIds }
  }

  it('lists specials with status and totals, and shows a special with its lots as staff see them', async () => {
    const { id, lotIds } = await special(2)
    const page = data(StaffSpecialPageSchema, await cataloguer('GET', '/specials?status=preview'))
    const row = page.items.find((s) => s.id === id)
    expect(row).toMatchObject({ status: 'preview', lotCount: 2, bidCount: 0, staggerSeconds: 30 })
    expect(page.total).toBeGreaterThanOrEqual(1)
    const live = data(StaffSpecialPageSchema, await cataloguer('GET', '/specials?status=live'))
    expect(live.items.some((s) => s.id === id)).toBe(false)

    const detail = data(StaffSpecialDetailSchema, await cataloguer('GET', `/specials/${id}`))
    expect(detail.lots.map((l) => l.id)).toEqual(lotIds)
    expect(detail.lots[1]).toMatchObject({
      lotNo: 2,
      reservePrice: 200_000,
      certNo: 'C1',
      exportBanned: false,
      status: 'preview',
      editable: true,
    })
    expect(Date.parse(detail.lots[1]!.endsAt) - Date.parse(detail.endsAt)).toBe(30_000)
  })

  it('refuses the catalogue to a cashier (403) and answers 404 for an unknown special', async () => {
    const { id, lotIds } = await special(1)
    for (const [method, path, body] of [
      ['GET', '/specials', undefined],
      ['GET', `/specials/${id}`, undefined],
      ['PUT', `/specials/${id}`, { title: 'x' }],
      ['PUT', `/lots/${lotIds[0]}`, { title: 'x' }],
      ['DELETE', `/lots/${lotIds[0]}`, undefined],
      ['POST', `/specials/${id}/lots/import`, { csv: 'title,startPrice\nx,100' }],
    ] as const) {
      const res = await cashier(method, path, body)
      expect(res.statusCode, `${method} ${path}`).toBe(403)
      expect(res.json().code).toBe('FORBIDDEN')
    }
    expect((await cataloguer('GET', '/specials/999999')).statusCode).toBe(404)
  })

  it('moves a special’s times before it starts, its lots following, with an audit line', async () => {
    const { id } = await special(3)
    const startsAt = t.clock.now() + 2 * HOUR
    const endsAt = startsAt + 3 * HOUR
    const after = data(
      StaffSpecialSchema,
      await cataloguer('PUT', `/specials/${id}`, {
        title: '机制币精品专场',
        startsAt: iso(startsAt),
        endsAt: iso(endsAt),
        staggerSeconds: 60,
        softCloseWindowSeconds: 120,
      }),
    )
    expect(after).toMatchObject({
      title: '机制币精品专场',
      startsAt: iso(startsAt),
      staggerSeconds: 60,
      softCloseWindowSeconds: 120,
      softCloseExtendSeconds: 300,
    })
    const detail = data(StaffSpecialDetailSchema, await cataloguer('GET', `/specials/${id}`))
    expect(detail.lots.map((l) => [l.startsAt, l.endsAt])).toEqual(
      [0, 1, 2].map((i) => [iso(startsAt), iso(endsAt + i * 60_000)]),
    )
    const [line] = await auditOf(`special:${id}`)
    expect(line).toMatchObject({
      action: expect.stringContaining('Change a special'),
      statusCode: 200,
    })
    expect(line!.before).toMatchObject({ title: '机制币专场', staggerSeconds: 30 })
    expect(line!.after).toMatchObject({ title: '机制币精品专场', staggerSeconds: 60 })

    const backwards = await cataloguer('PUT', `/specials/${id}`, { endsAt: iso(startsAt - 1) })
    expect(backwards.statusCode).toBe(400)
    expect(backwards.json().code).toBe('VALIDATION_FAILED')
  })

  it('refuses to move a special’s end, or an unstarted special’s start, into the past', async () => {
    const { id, lotIds } = await special(2)
    const now = t.clock.now()
    const refusals = [
      { startsAt: iso(now - 2 * HOUR), endsAt: iso(now - HOUR) },
      { startsAt: iso(now - HOUR), endsAt: iso(now + 2 * HOUR) },
      { startsAt: iso(now - 2 * HOUR), endsAt: iso(now) },
    ]
    for (const body of refusals) {
      const res = await cataloguer('PUT', `/specials/${id}`, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json().code).toBe('SPECIAL_TIMES_PAST')
    }
    const detail = data(StaffSpecialDetailSchema, await cataloguer('GET', `/specials/${id}`))
    expect(detail).toMatchObject({ status: 'preview', startsAt: iso(now + HOUR) })
    expect(detail.lots.map((l) => l.id)).toEqual(lotIds)
    expect(detail.lots.every((l) => l.status === 'preview')).toBe(true)
    // Now and later stay allowed.
    const moved = await cataloguer('PUT', `/specials/${id}`, {
      startsAt: iso(now),
      endsAt: iso(now + MINUTE),
    })
    expect(moved.statusCode, moved.body).toBe(200)

    // A new special may start a moment ago, but must end later than now.
    for (const endsAt of [now - MINUTE, now]) {
      const created = await cataloguer('POST', '/specials', {
        title: '过去的专场',
        startsAt: iso(now - HOUR),
        endsAt: iso(endsAt),
      })
      expect(created.statusCode).toBe(400)
      expect(created.json().code).toBe('SPECIAL_TIMES_PAST')
    }
    const startedAMinuteAgo = await cataloguer('POST', '/specials', {
      title: '刚开始的专场',
      startsAt: iso(now - MINUTE),
      endsAt: iso(now + HOUR),
    })
    expect(startedAMinuteAgo.statusCode, startedAMinuteAgo.body).toBe(200)
  })

  it('finds specials by a part of the title, ignoring case, with % _ and \\ as letters', async () => {
    const tag = `K${kind.name}${t.clock.now()}`
    const make = async (title: string) =>
      data(
        IdData,
        await cataloguer('POST', '/specials', {
          title,
          startsAt: iso(t.clock.now() + HOUR),
          endsAt: iso(t.clock.now() + 2 * HOUR),
        }),
      ).id
    const percent = await make(`${tag} 100%银币`)
    const underscore = await make(`${tag} a_b`)
    const backslash = await make(`${tag} c\\d`)
    const upper = await make(`${tag} PCGS 金盾`)
    const plain = await make(`${tag} 普通 ab`)
    const find = async (keyword: string) =>
      data(
        StaffSpecialPageSchema,
        await cataloguer('GET', `/specials?pageSize=100&keyword=${encodeURIComponent(keyword)}`),
      )
        .items.map((s) => s.id)
        .filter((id) => [percent, underscore, backslash, upper, plain].includes(id))
    expect(await find('%')).toEqual([percent])
    expect(await find('_')).toEqual([underscore])
    expect(await find('\\')).toEqual([backslash])
    expect(await find('pcgs 金')).toEqual([upper])
    expect(await find(tag.toLowerCase())).toHaveLength(5)
  })

  it('refuses a title keyword with a control character (400, not PostgreSQL’s 500 on NUL)', async () => {
    for (const keyword of ['%00', 'a%00b', '%1F']) {
      const res = await cataloguer('GET', `/specials?keyword=${keyword}`)
      expect({ keyword, status: res.statusCode, code: res.json<{ code: string }>().code }).toEqual({
        keyword,
        status: 400,
        code: 'VALIDATION_FAILED',
      })
    }
  })

  it('refuses to move a started special’s times, but still takes its texts and cover', async () => {
    const { id } = await special(1, -MINUTE)
    for (const body of [
      { startsAt: iso(t.clock.now() + HOUR) },
      { endsAt: iso(t.clock.now() + 5 * HOUR) },
      { staggerSeconds: 10 },
      { softCloseExtendSeconds: 60 },
    ]) {
      const res = await cataloguer('PUT', `/specials/${id}`, body)
      expect(res.statusCode).toBe(409)
      expect(res.json().code).toBe('SPECIAL_STARTED')
    }
    const texts = await cataloguer('PUT', `/specials/${id}`, {
      subtitle: '晚八点结拍',
      cover: '/svc/media/photos/0123456789abcdef0123456789abcdef/full.jpg',
    })
    expect(data(StaffSpecialSchema, texts)).toMatchObject({
      subtitle: '晚八点结拍',
      status: 'live',
    })
  })

  it('edits every field of a lot with no bid, checking the grid and the reserve, with an audit line', async () => {
    const { lotIds } = await special(1)
    const lotId = lotIds[0]!
    const edit = (body: object) => cataloguer('PUT', `/lots/${lotId}`, body)

    const offGrid = await edit({ startPrice: 10_500 })
    expect(offGrid.statusCode).toBe(400)
    expect(offGrid.json()).toMatchObject({
      code: 'BID_OFF_GRID',
      details: { field: 'startPrice', below: 10_000, above: 11_000 },
    })
    const lowReserve = await edit({ reservePrice: 50_000 })
    expect(lowReserve.json().code).toBe('RESERVE_BELOW_START')
    const badCategory = await edit({ categoryId: 999_999 })
    expect(badCategory.json().code).toBe('VALIDATION_FAILED')

    const images = ['/svc/media/photos/0123456789abcdef0123456789abcdef/full.jpg']
    const after = data(
      StaffLotSchema,
      await edit({
        title: '光绪元宝 广东省造 库平七钱二分',
        description: '原光\n包浆自然',
        startPrice: 300_000,
        reservePrice: null,
        categoryId,
        gradeCode: 62,
        gradingService: 'NGC',
        certNo: '4567890-001',
        images,
        exportBanned: true,
      }),
    )
    expect(after).toMatchObject({
      title: '光绪元宝 广东省造 库平七钱二分',
      startPrice: 300_000,
      reservePrice: null,
      categoryId,
      gradeCode: 62,
      gradingService: 'NGC',
      certNo: '4567890-001',
      images,
      exportBanned: true,
      editable: true,
    })
    const [line] = await auditOf(`lot:${lotId}`)
    expect(line!.before).toMatchObject({ startPrice: 100_000, reservePrice: 200_000 })
    expect(line!.after).toMatchObject({ startPrice: 300_000, reservePrice: null, gradeCode: 62 })
    // The shop shows what staff wrote.
    const shop = await t.call({ method: 'GET', path: `/auction/${lotId}` })
    expect(shop.json().data).toMatchObject({ title: after.title, exportBanned: true, images })
  })

  it('refuses to edit a lot once bidding started on it, and a refusal is logged too', async () => {
    const { lotIds } = await special(1, -MINUTE)
    const lotId = lotIds[0]!
    // Live without bids: still editable.
    expect(
      data(StaffLotSchema, await cataloguer('PUT', `/lots/${lotId}`, { subtitle: '美品' }))
        .editable,
    ).toBe(true)
    const bid = await t.call({
      method: 'POST',
      path: '/bidding/bid',
      as: bidder,
      body: { lotId, amount: 100_000, proxy: false },
    })
    expect(bid.statusCode, bid.body).toBe(200)
    const res = await cataloguer('PUT', `/lots/${lotId}`, { startPrice: 50_000 })
    expect(res.statusCode).toBe(409)
    expect(res.json().code).toBe('LOT_HAS_BIDS')
    const detail = data(
      StaffSpecialDetailSchema,
      await cataloguer('GET', `/specials/${(await shopLot(lotId)).specialId}`),
    )
    expect(detail.lots[0]).toMatchObject({
      bidCount: 1,
      price: 100_000,
      status: 'live',
      editable: false,
    })
    expect(detail.bidCount).toBe(1)
    const [line] = await auditOf(`lot:${lotId}`)
    expect(line).toMatchObject({ statusCode: 409, errorCode: 'LOT_HAS_BIDS' })
  })

  it('never lets a price edit and a bid both land (the edit takes the lot lock bids take)', async () => {
    const { lotIds } = await special(5, -MINUTE)
    await Promise.all(
      lotIds.map(async (lotId) => {
        const [bid, edit] = await Promise.all([
          t.call({
            method: 'POST',
            path: '/bidding/bid',
            as: bidder,
            body: { lotId, amount: 100_000, proxy: false },
          }),
          cataloguer('PUT', `/lots/${lotId}`, { startPrice: 200_000, reservePrice: null }),
        ])
        const lot = await shopLot(lotId)
        if (bid.statusCode === 200) {
          expect(edit.json().code).toBe('LOT_HAS_BIDS')
          expect(lot).toMatchObject({ startPrice: 100_000, bidCount: 1 })
        } else {
          expect(edit.statusCode).toBe(200)
          expect(bid.json().code).toBe('BID_TOO_LOW')
          expect(lot).toMatchObject({ startPrice: 200_000, bidCount: 0 })
        }
      }),
    )
  })

  it('never answers 5xx when a lot’s category is deleted while the lot is filed under it', async () => {
    const pairs = 25
    const { lotIds } = await special(pairs)
    const categories: number[] = []
    for (let i = 0; i < pairs; i++)
      categories.push(
        data(IdData, await cataloguer('POST', '/categories', { name: `竞速分类 ${i}` })).id,
      )
    const outcomes = await Promise.all(
      lotIds.map(async (lotId, i) => {
        const [edit, removal] = await Promise.all([
          cataloguer('PUT', `/lots/${lotId}`, { categoryId: categories[i] }),
          // Staggered, so some deletions land between the edit's check and its write.
          sleep(i % 8).then(() => cataloguer('DELETE', `/categories/${categories[i]}`)),
        ])
        const lot = data(
          StaffSpecialDetailSchema,
          await cataloguer('GET', `/specials/${(await shopLot(lotId)).specialId}`),
        ).lots.find((l) => l.id === lotId)!
        if (edit.statusCode === 200) {
          expect(removal.json().code, removal.body).toBe('CATEGORY_IN_USE')
          expect(lot.categoryId).toBe(categories[i])
        } else {
          expect(edit.statusCode, edit.body).toBe(400)
          expect(edit.json().code).toBe('VALIDATION_FAILED')
          expect(removal.statusCode, removal.body).toBe(200)
          expect(lot.categoryId).toBeNull()
        }
        return edit.statusCode
      }),
    )
    expect(outcomes.every((status) => status < 500)).toBe(true)
  })

  const shopLot = async (id: number) =>
    (await t.call({ method: 'GET', path: `/auction/${id}` })).json().data as {
      specialId: number
      endsAt: string
      startPrice: number
      bidCount: number
    }

  it('withdraws a lot before the start, closing the gap; refuses once the special started', async () => {
    const { id, lotIds } = await special(3)
    const res = await cataloguer('DELETE', `/lots/${lotIds[0]}`)
    expect(data(StaffLotSchema, res).lotNo).toBe(1)
    const detail = data(StaffSpecialDetailSchema, await cataloguer('GET', `/specials/${id}`))
    expect(detail.lots.map((l) => [l.id, l.lotNo])).toEqual([
      [lotIds[1], 1],
      [lotIds[2], 2],
    ])
    expect(detail.lots.map((l) => Date.parse(l.endsAt) - Date.parse(detail.endsAt))).toEqual([
      0, 30_000,
    ])
    expect((await auditOf(`lot:${lotIds[0]}`))[0]!.before).toMatchObject({ id: lotIds[0] })

    const started = await special(1, -MINUTE)
    const refused = await cataloguer('DELETE', `/lots/${started.lotIds[0]}`)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().code).toBe('SPECIAL_STARTED')
  })

  describe('bulk import', () => {
    const header =
      'title,subtitle,description,startPrice,reservePrice,category,gradeCode,gradingService,certNo,exportBanned,images'

    it('answers every row’s errors and writes nothing, on a dry run and on an import', async () => {
      const { id } = await special(1)
      const csv = [
        header,
        '袁大头 三年,,,100,,,,,,,',
        ',,,100.5,,,,,,,',
        '孙小头,,,110,100,无此分类,100,XYZ,,也许,ftp://x/y.jpg',
        '"带引号, 的标题",,,1000.00,2000,机制币,64,pcgs,123,是,/svc/media/a.jpg|https://b.example/c.jpg',
      ].join('\n')
      const dry = data(
        LotImportResultSchema,
        await cataloguer('POST', `/specials/${id}/lots/import`, { csv, dryRun: true }),
      )
      expect(dry.rowCount).toBe(4)
      expect(dry.lots).toEqual([])
      expect(dry.errors.map((e) => [e.row, e.field, e.code])).toEqual([
        [3, 'title', 'VALIDATION_FAILED'],
        [3, 'startPrice', 'BID_OFF_GRID'],
        [4, 'reservePrice', 'RESERVE_BELOW_START'],
        [4, 'category', 'VALIDATION_FAILED'],
        [4, 'gradeCode', 'VALIDATION_FAILED'],
        [4, 'gradingService', 'VALIDATION_FAILED'],
        [4, 'exportBanned', 'VALIDATION_FAILED'],
        [4, 'images', 'VALIDATION_FAILED'],
      ])
      expect(dry.errors[1]!.message).toContain('100.00 或 110.00')

      const real = await cataloguer('POST', `/specials/${id}/lots/import`, { csv })
      expect(real.statusCode).toBe(400)
      expect(real.json()).toMatchObject({ code: 'LOT_IMPORT_INVALID', details: { rowCount: 4 } })
      expect(real.json().details.errors).toHaveLength(8)
      const detail = data(StaffSpecialDetailSchema, await cataloguer('GET', `/specials/${id}`))
      expect(detail.lots).toHaveLength(1)
      expect((await auditOf(`special:${id}`))[0]).toMatchObject({ errorCode: 'LOT_IMPORT_INVALID' })
    })

    it('refuses a file without the required columns or rows', async () => {
      const { id } = await special(0)
      const check = async (csv: string) =>
        data(
          LotImportResultSchema,
          await cataloguer('POST', `/specials/${id}/lots/import`, { csv, dryRun: true }),
        ).errors.map((e) => [e.row, e.field])
      expect(await check('title,price\nx,1')).toEqual([
        [1, 'price'],
        [1, 'startPrice'],
      ])
      expect(await check(header)).toEqual([[1, '']])
      expect(await check('title,startPrice\n"open quote,1')).toHaveLength(1)
      expect(await check('title,startPrice,title\nx,100,y')).toEqual([[1, 'title']])
      expect(await check('Title,startPrice,TITLE\nx,100,y')).toEqual([[1, 'TITLE']])
    })

    it('imports all rows in file order as the next lots, numbered and staggered', async () => {
      const { id, lotIds } = await special(1)
      const csv = [
        `\uFEFF${header}`,
        '袁大头 三年,,,100,,,,,,,',
        '"带引号, 的标题",副标题,"两行\n描述","1,000.00",2000,机制币,64,pcgs,123,是,/svc/media/a.jpg|https://b.example/c.jpg',
      ].join('\r\n')
      const dry = data(
        LotImportResultSchema,
        await cataloguer('POST', `/specials/${id}/lots/import`, { csv, dryRun: true }),
      )
      expect(dry).toEqual({ dryRun: true, rowCount: 2, errors: [], lots: [] })
      expect(
        data(StaffSpecialDetailSchema, await cataloguer('GET', `/specials/${id}`)).lots,
      ).toHaveLength(1)

      const done = data(
        LotImportResultSchema,
        await cataloguer('POST', `/specials/${id}/lots/import`, { csv }),
      )
      expect(done.lots.map((l) => l.lotNo)).toEqual([2, 3])
      const detail = data(StaffSpecialDetailSchema, await cataloguer('GET', `/specials/${id}`))
      expect(detail.lots.map((l) => l.id)).toEqual([lotIds[0], ...done.lots.map((l) => l.id)])
      expect(detail.lots[2]).toMatchObject({
        lotNo: 3,
        title: '带引号, 的标题',
        subtitle: '副标题',
        description: '两行\n描述',
        startPrice: 100_000,
        reservePrice: 200_000,
        categoryId,
        gradeCode: 64,
        gradingService: 'PCGS',
        certNo: '123',
        exportBanned: true,
        images: ['/svc/media/a.jpg', 'https://b.example/c.jpg'],
        endsAt: iso(Date.parse(detail.endsAt) + 60_000),
      })
      expect(detail.lots[1]).toMatchObject({ startPrice: 10_000, reservePrice: null, gradeCode: 0 })
    })

    it('offers a template whose rows import as they are', async () => {
      const res = await cataloguer('GET', '/lots/import-template')
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
      expect(res.body.split('\r\n')[0]).toBe(`\uFEFF${header}`)
      const { id } = await special(0)
      const dry = data(
        LotImportResultSchema,
        await cataloguer('POST', `/specials/${id}/lots/import`, { csv: res.body, dryRun: true }),
      )
      expect(dry).toMatchObject({ rowCount: 2, errors: [] })
    })
  })

  it('takes no lots into a special whose first lot has closed, by hand or by CSV', async () => {
    const { id } = await special(1)
    t.clock.advance(3 * HOUR)
    const add = await cataloguer('POST', '/lots', {
      specialId: id,
      title: '迟到的拍品',
      startPrice: 10_000,
    })
    expect(add.statusCode).toBe(409)
    expect(add.json()).toMatchObject({ code: 'SPECIAL_CLOSED' })
    const csv = 'title,startPrice\n迟到的拍品,100'
    for (const dryRun of [true, false]) {
      const imported = await cataloguer('POST', `/specials/${id}/lots/import`, { csv, dryRun })
      expect(imported.statusCode).toBe(409)
      expect(imported.json()).toMatchObject({ code: 'SPECIAL_CLOSED' })
    }
    const detail = await admin('GET', `/specials/${id}`)
    expect(detail.json()).toMatchObject({ data: { acceptsLots: false } })
  })

  it('takes only pictures of ours or https from a CSV', async () => {
    const { id } = await special(0)
    for (const url of [
      'http://evil.example/b.jpg',
      '/\\evil.example/a.jpg',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'https://tracker.example/p.gif',
      '/special/1',
    ]) {
      const csv = `title,startPrice,images\n一枚银币,100,${url}`
      const res = await cataloguer('POST', `/specials/${id}/lots/import`, { csv, dryRun: true })
      expect(res.statusCode).toBe(200)
      expect(res.json<{ data: { errors: { field: string }[] } }>().data.errors).toEqual([
        expect.objectContaining({ field: 'images' }),
      ])
    }
  })
})
