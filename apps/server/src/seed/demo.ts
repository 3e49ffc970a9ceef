import type { FastifyBaseLogger } from 'fastify'
import type { CouponCreate } from '@numisma/contracts/mall'
import { CatalogRepository } from '../modules/catalog/repository'
import { CatalogService } from '../modules/catalog/service'
import { CouponRepository } from '../modules/coupons/repository'
import { CouponService } from '../modules/coupons/service'
import { BankingRepository } from '../modules/finance/repository'
import { LedgerService } from '../modules/ledger/service'
import { PassportRepository } from '../modules/passport/repository'
import type { Clock } from '../platform/clock'
import type { Database } from '../platform/db'
import { SettingsRepository } from '../platform/settings-repository'
import { transactor } from '../platform/transactions'
import { rollDemo, seedCatalogue } from './catalogue'

/** Demo collectors who can sign in with the sandbox SMS code (DESIGN §8). */
export const DEMO_USERS = [
  { mobile: '13800138000', display: '演示藏友' },
  { mobile: '13900139000', display: '袁大头收藏家' },
] as const

/**
 * Seeds demo data once per database (SEED=demo, the default): demo users and the catalogue. A
 * one-time marker (inserted first, atomically) means a restart or a second instance never
 * duplicates rows.
 */
export async function seedDemo(database: Database, clock: Clock, log: FastifyBaseLogger) {
  const settings = new SettingsRepository(database.db)
  const catalog = new CatalogRepository(database.db)
  if (!(await catalog.isEmpty())) return
  // Several instances may start together on an empty database: the marker decides who seeds.
  const marker = `seeded:${clock.now()}`
  if ((await settings.getOrInsert('seed.demo', marker)) !== marker) return
  const passport = new PassportRepository(database.db)
  const ledger = new LedgerService(database, clock)
  for (const user of DEMO_USERS) {
    const row = await passport.findOrCreateUser(user.mobile, user.display, clock.now())
    if (row.created) await ledger.creditDeposit(row.id, 500_000, 'demo deposit')
  }
  await seedCatalogue(catalog, clock.now())
  const catalogue = new CatalogService(catalog, clock)
  const coupons = new CouponService({
    transact: transactor(database),
    clock,
    coupons: new CouponRepository(database.db, database.dialect),
    categoryChain: (categoryId) => catalogue.mallCategoryChain(categoryId),
  })
  const categories = await catalog.listMallCategories()
  for (const coupon of demoCoupons(
    clock.now(),
    (name) => categories.find((c) => c.name === name)?.id,
  )) {
    await coupons.create(coupon)
  }
  const banks = new BankingRepository(database.db, database.dialect)
  for (const bank of DEMO_COMPANY_BANKS) await banks.addCompanyBank(bank)
  log.info({ users: DEMO_USERS.length }, 'demo data seeded')
}

/**
 * The accounts a collector remits to (/account/bankAddress, DESIGN §8): the auction house's basic
 * account at ICBC beside the Panjiayuan antiques market, and a general account at China Merchants
 * Bank. Invented numbers in the banks' 19-digit form.
 */
export const DEMO_COMPANY_BANKS = [
  {
    bankName: '中国工商银行',
    branch: '北京潘家园支行',
    accountName: '泉藏拍卖（北京）文化有限公司',
    accountNo: '0200248909200135678',
    sort: 1,
  },
  {
    bankName: '招商银行',
    branch: '北京宣武门支行',
    accountName: '泉藏拍卖（北京）文化有限公司',
    accountNo: '1109273516100020168',
    sort: 2,
  },
] as const

const DAY = 24 * 60 * 60 * 1000

/**
 * The demo's coupons (DESIGN §8), made through the same service as the staff call: one for the
 * whole mall, a percent coupon for coins, one for collecting supplies, and a small one without a
 * threshold, valid from yesterday for sixty days.
 */
export function demoCoupons(now: number, categoryId: (name: string) => number | undefined) {
  const window = {
    startsAt: new Date(now - DAY).toISOString(),
    endsAt: new Date(now + 60 * DAY).toISOString(),
  }
  // A missing category must stop the seed: an empty list would silently make the coupon whole-mall.
  const only = (name: string) => {
    const id = categoryId(name)
    if (id === undefined) throw new Error(`demo coupons: no mall category named ${name}`)
    return [id]
  }
  const coupons: CouponCreate[] = [
    {
      title: '全场满200减20',
      kind: 'amount',
      threshold: 20_000,
      amount: 2_000,
      total: 10_000,
      perUser: 2,
      productNos: [],
      categoryIds: [],
      ...window,
    },
    {
      title: '钱币专享9折（最高减100元）',
      kind: 'percent',
      threshold: 30_000,
      percent: 10,
      cap: 10_000,
      total: 5_000,
      perUser: 1,
      productNos: [],
      categoryIds: only('钱币'),
      ...window,
    },
    {
      title: '收藏工具满50减8',
      kind: 'amount',
      threshold: 5_000,
      amount: 800,
      total: 5_000,
      perUser: 3,
      productNos: [],
      categoryIds: only('收藏工具'),
      ...window,
    },
    {
      title: '新人无门槛5元券',
      kind: 'amount',
      threshold: 0,
      amount: 500,
      total: 20_000,
      perUser: 1,
      productNos: [],
      categoryIds: [],
      ...window,
    },
  ]
  return coupons
}

/** While the demo runs, a new quick-sale special opens whenever the closing lots run low. */
export function startDemoRoller(database: Database, clock: Clock, log: FastifyBaseLogger) {
  const repo = new CatalogRepository(database.db)
  const tick = () => {
    rollDemo(repo, clock.now())
      .then((rolled) => rolled && log.info('demo: a new quick-sale special opened'))
      .catch((error: unknown) => log.error({ err: error }, 'demo roller failed'))
  }
  tick()
  const timer = setInterval(tick, 60_000)
  timer.unref()
  return () => clearInterval(timer)
}
