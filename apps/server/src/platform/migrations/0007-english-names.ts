import type { Kysely } from 'kysely'

/**
 * English names of the rows the demo seed wrote before this migration. A migration is history:
 * it keeps its own copy rather than reading the seed, so editing the seed later never changes
 * what this step does to a database it has not reached yet.
 */
const MALL_CATEGORY_NAMES: readonly (readonly [zh: string, en: string])[] = [
  ['钱币', 'Coins'],
  ['古钱币', 'Ancient coins'],
  ['机制币', 'Machine-struck coins'],
  ['纪念币', 'Commemorative coins'],
  ['纸币', 'Banknotes'],
  ['人民币', 'Renminbi'],
  ['民国纸币', 'Republic of China notes'],
  ['外国纸币', 'Foreign banknotes'],
  ['金银币', 'Gold & silver coins'],
  ['熊猫币', 'Panda coins'],
  ['生肖币', 'Chinese zodiac coins'],
  ['纪念金银币', 'Gold & silver commemoratives'],
  ['收藏工具', 'Collecting supplies'],
  ['评级盒', 'Slab holders'],
  ['钱币册', 'Coin albums'],
  ['放大镜', 'Loupes'],
]

const BANNER_TITLES: readonly (readonly [zh: string, en: string])[] = [
  [
    '民国机制币精品 · 袁大头船洋龙洋',
    'Republic-era struck coins · Yuan Shikai, Junk & Dragon dollars',
  ],
  ['周末评级币速拍 · 即将结拍', 'Weekend graded-coin quick sale · Closing soon'],
  ['纸韵流金 · 一版至五版人民币', 'Golden paper · Renminbi, first to fifth series'],
  ['泉海拾珍·民国机制币专场', 'Treasures of the Republic · Machine-struck coins'],
  ['古泉雅集·历代古钱币专场', 'Ancient coins through the dynasties'],
  ['纸韵流金·人民币纸币专场', 'Golden paper · Renminbi banknotes'],
  ['金银荟萃·贵金属纪念币专场', 'Gold & silver · Precious-metal commemoratives'],
  ['周末评级币速拍', 'Weekend graded-coin quick sale'],
]

/**
 * English names for the mall category tree and banner titles (auction categories had them from
 * 0002). Existing rows get the seed's translations; any other row keeps '' and is shown under its
 * Chinese name until staff enter one.
 */
export function englishNames() {
  return {
    async up(untyped: Kysely<unknown>): Promise<void> {
      await untyped.schema
        .alterTable('mall_categories')
        .addColumn('name_en', 'text', (c) => c.notNull().defaultTo(''))
        .execute()
      await untyped.schema
        .alterTable('banners')
        .addColumn('title_en', 'text', (c) => c.notNull().defaultTo(''))
        .execute()

      const db = untyped as Kysely<{
        mall_categories: { name: string; name_en: string }
        banners: { title: string; title_en: string }
      }>
      for (const [zh, en] of MALL_CATEGORY_NAMES) {
        await db
          .updateTable('mall_categories')
          .set({ name_en: en })
          .where('name', '=', zh)
          .execute()
      }
      for (const [zh, en] of BANNER_TITLES) {
        await db.updateTable('banners').set({ title_en: en }).where('title', '=', zh).execute()
      }
    },

    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('banners').dropColumn('title_en').execute()
      await db.schema.alterTable('mall_categories').dropColumn('name_en').execute()
    },
  }
}
