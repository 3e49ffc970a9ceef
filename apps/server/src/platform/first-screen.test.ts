import Fastify, { type FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { FIRST_SCREEN_GLOBAL, type ClientConfig } from '@numisma/contracts/client-config'
import { FIRST_SCREEN_DATA, firstScreen, planFor } from './first-screen'

interface Def {
  type: string
  coerce?: boolean
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
  innerType?: z.ZodType
  options?: z.ZodType[]
  left?: z.ZodType
  right?: z.ZodType
  keyType?: z.ZodType
  valueType?: z.ZodType
  items?: z.ZodType[]
  rest?: z.ZodType | null
  getter?: () => z.ZodType
}

/** The kinds of schema whose output is not simply what they were given (or a default for none). */
const RESHAPING = new Set([
  'transform',
  'pipe',
  'catch',
  'prefault',
  'date',
  'bigint',
  'map',
  'set',
])

/** Where a schema, or one inside it, changes what it parses; empty when none does. */
function reshaping(schema: z.ZodType, at = '', seen = new Set<z.ZodType>()): string[] {
  if (seen.has(schema)) return []
  seen.add(schema)
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def
  const found: string[] = []
  if (RESHAPING.has(def.type)) found.push(`${at || '(root)'}: ${def.type}`)
  if (def.coerce) found.push(`${at || '(root)'}: coerced ${def.type}`)
  const inner: [string, z.ZodType | null | undefined][] = [
    ...Object.entries(def.shape ?? {}).map(([k, v]): [string, z.ZodType] => [`${at}.${k}`, v]),
    [`${at}[]`, def.element],
    [at, def.innerType],
    ...(def.options ?? []).map((o, i): [string, z.ZodType] => [`${at}|${i}`, o]),
    [at, def.left],
    [at, def.right],
    [`${at}{key}`, def.keyType],
    [`${at}{value}`, def.valueType],
    ...(def.items ?? []).map((o, i): [string, z.ZodType] => [`${at}[${i}]`, o]),
    [`${at}[...]`, def.rest],
    [at, def.getter?.()],
  ]
  for (const [where, next] of inner) if (next) found.push(...reshaping(next, where, seen))
  return found
}

describe('the first screen’s answers (issue 13)', () => {
  it('are checked by schemas that give back what they parse, as the web app would', () => {
    for (const [name, schema] of Object.entries(FIRST_SCREEN_DATA)) {
      expect(reshaping(schema), name).toEqual([])
    }
  })

  it('the walker finds what reshapes', async () => {
    const { z } = await import('zod')
    const schema = z.object({
      a: z.array(z.object({ n: z.coerce.number() })),
      b: z.string().transform(Number).optional(),
    })
    expect(reshaping(schema)).toEqual(['.a[].n: coerced number', '.b: pipe'])
  })

  it('every landing call names its schema', () => {
    for (const url of [
      '/',
      '/specialDetail?id=1',
      '/productDetail?id=2',
      '/productDetail?productNo=M1',
    ]) {
      const plan = planFor(url)!
      expect(plan.calls.length, url).toBeGreaterThan(0)
      for (const call of plan.calls) {
        expect(Object.values(FIRST_SCREEN_DATA), call.path).toContain(call.data)
      }
    }
  })
})

const CONFIG: ClientConfig = {
  env: 'development',
  services: { main: '/svc/main', search: '/svc/search', push: '/svc/push' },
  apps: { h5: { id: 'h5', key: 'h5-key' }, search: { id: 'search', key: 'search-key' } },
  signSecret: 'secret',
  wechat: null,
  chat: { agentId: 'agent' },
}

describe('an inlined answer (issue 13)', () => {
  it('is inlined as its schema parsed it, and not at all when the schema refuses it', async () => {
    const app = Fastify()
    const banner = { id: 1, title: '春拍', titleEn: 'Spring', image: '/b.jpg', link: '/x' }
    app.get('/svc/main/mall/advertis/0', () => ({ data: [{ ...banner, internal: 'no' }] }))
    app.get('/svc/main/meta/@category', () => ({ data: [{ id: 'one', name: '古钱' }] }))
    app.get('/svc/main/special/V1', () => ({ data: [] }))
    const page = await firstScreen(app, CONFIG, new Map(), () => 0).page({
      url: '/',
      headers: {},
    } as FastifyRequest)
    await app.close()
    const block = new RegExp(`id="${FIRST_SCREEN_GLOBAL}">(.*?)</script>`).exec(page!.head)
    expect(JSON.parse(block![1]!)).toEqual({
      '/svc/main/mall/advertis/0': { data: [banner] },
      '/svc/main/special/V1': { data: [] },
    })
  })
})
