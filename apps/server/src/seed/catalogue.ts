import { DEFAULT_PRICE_STEPS, stepAt } from '@numisma/domain/increments'
import type { Insertable } from 'kysely'
import type { Artwork } from '../modules/media/artwork'
import { artworkUrl } from '../modules/media/routes'
import { parseImages } from '../modules/catalog/mappers'
import type { CatalogRepository } from '../modules/catalog/repository'
import type { LotsTable, MallItemsTable } from '../platform/schema'
import {
  ANCIENT,
  BANKNOTES,
  CATEGORIES,
  COIN_GRADES,
  COMMEMORATIVES,
  HOME_BANNERS,
  type ItemTemplate,
  MACHINE_STRUCK,
  MALL_CATEGORIES,
  MALL_ONLY,
  type MallLeaf,
  NOTE_GRADES,
  RAW_COIN_GRADES,
  RAW_NOTE_GRADES,
  SPECIAL_THEMES,
  SUPPLIES,
  type SupplyLeaf,
  type SupplyTemplate,
} from './catalogue-data'

/**
 * The demo catalogue (DESIGN §8), generated from a seed so every run builds the same shop: the
 * same titles, grades, prices and pictures for the same seed.
 */
export class Rng {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0 || 1
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!
  }

  chance(p: number): boolean {
    return this.next() < p
  }
}

/** The largest grid amount ≤ `fen` (start prices must be on the grid, DESIGN §4). */
export function onGridAtMost(fen: number): number {
  const step = stepAt(fen, DEFAULT_PRICE_STEPS)
  return Math.max(step, Math.floor(fen / step) * step)
}

const POOLS = {
  ancient: ANCIENT,
  machine: MACHINE_STRUCK,
  banknote: BANKNOTES,
  commemorative: COMMEMORATIVES,
  graded: [...MACHINE_STRUCK, ...BANKNOTES, ...COMMEMORATIVES],
} as const

export type Pool = keyof typeof POOLS

interface ItemFields {
  title: string
  subtitle: string
  description: string
  images: string
  grade_code: number
  grading_service: string | null
  cert_no: string | null
  year: string
  denomination: string
  material: string
  export_banned: number
  category_id: number
  priceFen: number
}

function pictures(t: ItemTemplate, seed: number): string[] {
  return (['obverse', 'reverse'] as const).map((side, i) => {
    const art: Artwork =
      t.kind === 'note'
        ? {
            kind: 'note',
            seed: seed * 2 + i,
            face: t.face,
            legend: t.legend,
            serial: `${String.fromCharCode(65 + (seed % 26))}${String.fromCharCode(65 + ((seed >> 3) % 26))} ${String(
              (seed * 7919) % 100_000_000,
            ).padStart(8, '0')}`,
            hue: (seed * 47) % 360,
            side,
          }
        : {
            kind: 'coin',
            seed: seed * 2 + i,
            face: t.face,
            legend: t.legend,
            metal: t.metal ?? 'silver',
            holed: t.holed ?? false,
            side,
          }
    return artworkUrl(art)
  })
}

/** One item drawn from a pool: raw or graded, with a grade of spec §3 and a plausible price. */
export function generateItem(
  rng: Rng,
  pool: Pool,
  seed: number,
  categoryIds: readonly number[],
  forceGraded = false,
): ItemFields {
  return itemFrom(rng.pick(POOLS[pool]), rng, seed, categoryIds, forceGraded)
}

function itemFrom(
  t: ItemTemplate,
  rng: Rng,
  seed: number,
  categoryIds: readonly number[],
  forceGraded: boolean,
): ItemFields {
  const graded = forceGraded || (t.category !== 1 && rng.chance(0.45))
  const service = graded
    ? rng.pick(t.kind === 'note' ? ['PMG', 'GBCA'] : ['PCGS', 'NGC', 'GBCA'])
    : null
  const gradeText = graded ? rng.pick(t.kind === 'note' ? NOTE_GRADES : COIN_GRADES) : ''
  const [low, high] = t.priceYuan
  const yuan = low + (high - low) * rng.next() ** 2
  const premium = graded ? 1.3 : 1
  return {
    title: graded ? `${service} ${gradeText} ${t.title}` : t.title,
    subtitle: graded
      ? `${service}评级 ${gradeText}，盒证齐全`
      : `${t.year}年 ${t.denomination} ${t.material}质`,
    description: `${t.description}${graded ? `经${service}评级为${gradeText}，评级盒完好。` : '原味包浆，未经清洗。'}拍品以实物为准，请仔细查看图片。`,
    images: JSON.stringify(pictures(t, seed)),
    grade_code: graded
      ? t.kind === 'note'
        ? 52
        : 51
      : rng.pick(t.kind === 'note' ? RAW_NOTE_GRADES : RAW_COIN_GRADES),
    grading_service: service,
    cert_no: graded ? String(rng.int(10_000_000, 99_999_999)) : null,
    year: t.year,
    denomination: t.denomination,
    material: t.material,
    export_banned: t.category === 1 || Number(t.year) < 1949 ? 1 : 0,
    category_id: graded ? categoryIds[4]! : categoryIds[t.category - 1]!,
    priceFen: Math.round(yuan * premium) * 100,
  }
}

export interface SpecialPlan {
  theme: (typeof SPECIAL_THEMES)[number]
  startsAt: number
  endsAt: number
  lotCount: number
  staggerSeconds: number
}

/** Creates a special and its lots; lots close one after another, `staggerSeconds` apart. */
export async function createSpecialWithLots(
  repo: CatalogRepository,
  rng: Rng,
  plan: SpecialPlan,
  now: number,
  seedBase: number,
): Promise<number> {
  const categoryIds = await repo.categoryIds()
  const firstLot = generateItem(
    rng,
    plan.theme.pool,
    seedBase,
    categoryIds,
    plan.theme.pool === 'graded',
  )
  const specialId = await repo.insertSpecial({
    title: plan.theme.title,
    subtitle: plan.theme.subtitle,
    description: plan.theme.description,
    cover: parseImages(firstLot.images)[0] ?? '',
    starts_at: plan.startsAt,
    ends_at: plan.endsAt,
    stagger_seconds: plan.staggerSeconds,
    soft_close_window_seconds: 300,
    soft_close_extend_seconds: 300,
    created_at: now,
  })
  const lots: Insertable<LotsTable>[] = []
  for (let n = 1; n <= plan.lotCount; n++) {
    const item =
      n === 1
        ? firstLot
        : generateItem(
            rng,
            plan.theme.pool,
            seedBase + n,
            categoryIds,
            plan.theme.pool === 'graded',
          )
    const { priceFen, ...fields } = item
    const start = onGridAtMost(Math.round(priceFen * 0.6))
    lots.push({
      ...fields,
      special_id: specialId,
      lot_no: n,
      start_price: start,
      reserve_price: rng.chance(0.3) ? onGridAtMost(Math.round(priceFen * 0.9)) : null,
      starts_at: plan.startsAt,
      ends_at: plan.endsAt + (n - 1) * plan.staggerSeconds * 1000,
      status: 'open',
      price: null,
      bid_count: 0,
      leader_id: null,
      created_at: now,
    })
  }
  await repo.insertLots(lots)
  return specialId
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/** The first catalogue of a fresh demo database. */
export async function seedCatalogue(repo: CatalogRepository, now: number, seed = 20261121) {
  const rng = new Rng(seed)
  for (const [i, c] of CATEGORIES.entries()) {
    await repo.insertCategory({ name: c.name, name_en: c.nameEn, icon: c.icon, sort: i })
  }
  const leafIds = new Map<MallLeaf, number>()
  for (const [i, c] of MALL_CATEGORIES.entries()) {
    const parent = await repo.insertMallCategory({
      parent_id: null,
      name: c.name,
      name_en: c.nameEn,
      sort: i,
    })
    for (const [j, child] of c.children.entries()) {
      const id = await repo.insertMallCategory({
        parent_id: parent,
        name: child.name,
        name_en: child.nameEn,
        sort: j,
      })
      leafIds.set(child.name, id)
    }
  }

  // A special closing within minutes (so a visitor can bid at once), others later, one upcoming.
  const plans: SpecialPlan[] = [
    {
      theme: SPECIAL_THEMES[4]!,
      startsAt: now - HOUR,
      endsAt: now + 6 * MINUTE,
      lotCount: 40,
      staggerSeconds: 30,
    },
    {
      theme: SPECIAL_THEMES[0]!,
      startsAt: now - 2 * HOUR,
      endsAt: now + 3 * HOUR,
      lotCount: 80,
      staggerSeconds: 30,
    },
    {
      theme: SPECIAL_THEMES[1]!,
      startsAt: now - HOUR,
      endsAt: now + 26 * HOUR,
      lotCount: 60,
      staggerSeconds: 30,
    },
    {
      theme: SPECIAL_THEMES[2]!,
      startsAt: now - 3 * HOUR,
      endsAt: now + 50 * HOUR,
      lotCount: 70,
      staggerSeconds: 30,
    },
    {
      theme: SPECIAL_THEMES[3]!,
      startsAt: now + 2 * HOUR,
      endsAt: now + 74 * HOUR,
      lotCount: 40,
      staggerSeconds: 30,
    },
  ]
  const specialIds: number[] = []
  for (const [i, plan] of plans.entries()) {
    specialIds.push(await createSpecialWithLots(repo, rng, plan, now, (i + 1) * 1000))
  }

  for (const [i, banner] of HOME_BANNERS.entries()) {
    const special = await repo.findSpecial(specialIds[banner.special]!)
    await repo.insertBanner({
      position: 0,
      title: banner.title,
      title_en: banner.titleEn,
      image: special!.cover,
      link: `/specialDetail?id=${specialIds[banner.special]!}`,
      sort: i,
      active_from: now - HOUR,
      active_until: null,
    })
  }
  for (const [i, specialIndex] of [2, 4].entries()) {
    const special = await repo.findSpecial(specialIds[specialIndex]!)
    await repo.insertBanner({
      position: 1,
      title: special!.title,
      title_en: plans[specialIndex]!.theme.titleEn,
      image: special!.cover,
      link: `/specialDetail?id=${specialIds[specialIndex]!}`,
      sort: i,
      active_from: now - HOUR,
      active_until: null,
    })
  }

  await repo.insertMallItems(generateMallItems(rng, leafIds, await repo.categoryIds(), now))
}

/** How many demo mall items each leaf category holds (100 in all). */
export const MALL_SHELVES: Record<MallLeaf, number> = {
  古钱币: 9,
  // Every machine-struck template once, the nickel 壹角 among them.
  机制币: 12,
  纪念币: 8,
  人民币: 9,
  民国纸币: 8,
  外国纸币: 8,
  熊猫币: 10,
  生肖币: 8,
  纪念金银币: 8,
  评级盒: 7,
  钱币册: 7,
  放大镜: 6,
}

/**
 * The shelves interleaved evenly, so the mall's newest-first list mixes categories rather than
 * showing ten ancient coins, then ten machine-struck ones.
 */
export function mallSchedule(shelves: Record<MallLeaf, number> = MALL_SHELVES): MallLeaf[] {
  const leaves = Object.keys(shelves) as MallLeaf[]
  return leaves
    .flatMap((leaf, order) =>
      Array.from({ length: shelves[leaf] }, (_, k) => ({
        leaf,
        order,
        at: (k + 0.5) / shelves[leaf],
      })),
    )
    .sort((a, b) => a.at - b.at || a.order - b.order)
    .map((slot) => slot.leaf)
}

/** Every coin and note the mall may stock, each filed under its `mall` leaf. */
export const MALL_TEMPLATES: readonly ItemTemplate[] = [
  ...ANCIENT,
  ...MACHINE_STRUCK,
  ...BANKNOTES,
  ...COMMEMORATIVES,
  ...MALL_ONLY,
]

const isSupplyLeaf = (leaf: MallLeaf): leaf is SupplyLeaf => SUPPLIES.some((s) => s.mall === leaf)

/**
 * The mall's items: each leaf category stocked from the templates filed under it, taken in turn
 * (so a shelf shows its variety before it repeats), each raw or graded like an auction lot.
 */
export function generateMallItems(
  rng: Rng,
  leafIds: ReadonlyMap<MallLeaf, number>,
  categoryIds: readonly number[],
  now: number,
): Insertable<MallItemsTable>[] {
  const taken = new Map<MallLeaf, number>()
  return mallSchedule().map((leaf, i) => {
    const k = taken.get(leaf) ?? 0
    taken.set(leaf, k + 1)
    const seed = 90_000 + i
    const categoryId = leafIds.get(leaf)
    if (categoryId === undefined) throw new Error(`no mall category ${leaf} to file items under`)
    const base = {
      product_no: `M${String(100_001 + i)}`,
      category_id: categoryId,
      limit_per_user: null as number | null,
      on_sale: 1,
      created_at: now - i * MINUTE,
    }
    if (isSupplyLeaf(leaf)) {
      const shelf = SUPPLIES.filter((t) => t.mall === leaf)
      return { ...base, ...supplyItem(shelf[k % shelf.length]!, rng, seed) }
    }
    const shelf = MALL_TEMPLATES.filter((t) => t.mall === leaf)
    const {
      priceFen,
      category_id: _auctionCategory,
      ...fields
    } = itemFrom(shelf[k % shelf.length]!, rng, seed, categoryIds, false)
    return {
      ...base,
      ...fields,
      price: Math.max(100, Math.round(priceFen / 1000) * 1000),
      stock: rng.int(1, 20),
      // 已售 counts units paid for here; a new shop has sold none (its records would be empty).
      sold: 0,
      limit_per_user: rng.chance(0.3) ? rng.int(1, 3) : null,
    }
  })
}

const SUPPLY_TOOL = { 评级盒: 'slab', 钱币册: 'album', 放大镜: 'loupe' } as const

/** A supply: no grade (code 0, "none"), no year or face value, priced to the yuan, well stocked. */
function supplyItem(t: SupplyTemplate, rng: Rng, seed: number) {
  const hue = (seed * 47) % 360
  const images = (['obverse', 'reverse'] as const).map((side, i) =>
    artworkUrl({
      kind: 'supply',
      seed: seed * 2 + i,
      tool: SUPPLY_TOOL[t.mall],
      label: t.label,
      hue,
      side,
    }),
  )
  const [low, high] = t.priceYuan
  return {
    title: t.title,
    subtitle: t.subtitle,
    description: t.description,
    images: JSON.stringify(images),
    grade_code: 0,
    grading_service: null,
    cert_no: null,
    year: '',
    denomination: '',
    material: t.material,
    export_banned: 0,
    price: rng.int(low, high) * 100,
    stock: rng.int(20, 200),
    sold: 0,
  }
}

/**
 * Keeps the demo alive: when fewer than `minimum` lots close within the next half hour, a new
 * quick-sale special starts now and closes over the next minutes.
 */
export async function rollDemo(
  repo: CatalogRepository,
  now: number,
  minimum = 10,
): Promise<boolean> {
  if ((await repo.countLotsEndingWithin(now, 30 * MINUTE)) >= minimum) return false
  const rng = new Rng(Math.floor(now / 1000))
  const theme = SPECIAL_THEMES[Math.floor(now / MINUTE) % SPECIAL_THEMES.length]!
  await createSpecialWithLots(
    repo,
    rng,
    { theme, startsAt: now, endsAt: now + 10 * MINUTE, lotCount: 20, staggerSeconds: 30 },
    now,
    Math.floor(now / 1000) % 1_000_000_000,
  )
  return true
}
