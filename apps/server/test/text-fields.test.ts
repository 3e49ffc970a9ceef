import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { type StaffCall, staffCaller } from './helpers/mall-orders'
import { addCompanyBanks } from './helpers/money'

/**
 * Text fields refuse control characters with a 400 naming the field: PostgreSQL refuses NUL in
 * text, which reached it as a 500 (contracts' plainText). On both databases.
 */
const databases = await testDatabases()

describe.each(databases)('text fields on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall
  let ann: Session
  let bankIds: number[]

  beforeAll(async () => {
    t = await createTestApp(kind)
    admin = await staffCaller(t)
    ann = await t.signIn()
    bankIds = await addCompanyBanks(t)
  })
  afterAll(() => t.close())

  const refused = (
    res: { statusCode: number; body: string; json: () => unknown },
    field: string,
  ) => {
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: [expect.objectContaining({ field: `body.${field}` })] },
    })
  }
  const remittance = {
    companyBankId: 0,
    amount: 100_00,
    payerName: '张三',
    payerBank: '中国银行北京分行',
    remittedOn: '2026-11-24',
  }
  const withdrawal = {
    amount: 100_00,
    source: 'balance',
    bankName: '中国建设银行北京分行',
    accountName: '张三',
    accountNo: '6217000010001234567',
  }

  it('a remittance notice with NUL or another control character in a name', async () => {
    for (const [field, value] of [
      ['payerName', '张\u0000三'],
      ['payerBank', '中国银行\u0000'],
      ['payerName', '张\u001b三'],
      ['payerBank', '中国\n银行'],
    ] as const) {
      const res = await t.call({
        method: 'POST',
        path: '/user/finance/@remittance',
        as: ann,
        body: { ...remittance, companyBankId: bankIds[0], [field]: value },
      })
      refused(res, field)
    }
    const filed = await t.database.db.selectFrom('remittances').select('id').execute()
    expect(filed).toEqual([])
  })

  it('a withdrawal with NUL in the bank or the account name', async () => {
    for (const field of ['bankName', 'accountName']) {
      const res = await t.call({
        method: 'POST',
        path: '/user/finance/withdrawals',
        as: ann,
        body: { ...withdrawal, [field]: 'x\u0000y' },
      })
      refused(res, field)
    }
  })

  it('staff text: a decision note, a mall item, a coupon, a special and a lot', async () => {
    refused(await admin('POST', '/remittances/1/reject', { note: '未查到\u0000' }), 'note')
    refused(await admin('POST', '/withdrawals/1/refuse', { note: '\u0000' }), 'note')
    refused(
      await admin('POST', '/mall-items', { title: '纪念币\u0000', price: 100, stock: 1 }),
      'title',
    )
    refused(
      await admin('POST', '/coupons', {
        title: '满100减20\u0000',
        kind: 'amount',
        threshold: 100_00,
        amount: 20_00,
        total: 10,
        perUser: 1,
        startsAt: new Date(t.clock.now()).toISOString(),
        endsAt: new Date(t.clock.now() + 86_400_000).toISOString(),
      }),
      'title',
    )
    refused(
      await admin('POST', '/specials', {
        title: '秋拍',
        description: '第一行\n第二行\u0000',
        startsAt: new Date(t.clock.now()).toISOString(),
        endsAt: new Date(t.clock.now() + 86_400_000).toISOString(),
      }),
      'description',
    )
    // A description keeps its line breaks; a note too.
    const special = await admin('POST', '/specials', {
      title: '秋拍',
      description: '第一行\n第二行\r\n\t第三行',
      startsAt: new Date(t.clock.now()).toISOString(),
      endsAt: new Date(t.clock.now() + 86_400_000).toISOString(),
    })
    expect(special.statusCode, special.body).toBe(200)
    refused(
      await admin('POST', '/lots', {
        specialId: special.json().data.id,
        title: '袁大头',
        certNo: '123\u0000',
        startPrice: 100,
      }),
      'certNo',
    )
  })
})
