/**
 * Invalid requests generated from the app's own OpenAPI document (the zod contracts as
 * fastify-type-provider-zod publishes them), for test/fuzz.test.ts (issue 15, deliverable 1).
 * Deterministic: everything comes from one seeded PRNG.
 */

/** The part of a JSON Schema (as zod's OpenAPI transform writes it) the generator reads. */
export interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  nullable?: boolean
  minimum?: number
  maximum?: number
  exclusiveMinimum?: boolean | number
  exclusiveMaximum?: boolean | number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  pattern?: string
  format?: string
  default?: unknown
}

interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie'
  name: string
  required?: boolean
  schema?: JsonSchema
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[]
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> }
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface FuzzRoute {
  method: Method
  /** OpenAPI path, `{name}` for a parameter. */
  path: string
  params: { name: string; schema: JsonSchema }[]
  query: { name: string; required: boolean; schema: JsonSchema }[]
  /** Declared header parameters (`Idempotency-Key`); the signing headers are not declared. */
  headers: { name: string; required: boolean; schema: JsonSchema }[]
  body?: JsonSchema
}

export function routesOf(doc: OpenApiDocument): FuzzRoute[] {
  const routes: FuzzRoute[] = []
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const parameters = op.parameters ?? []
      routes.push({
        method: method.toUpperCase() as Method,
        path,
        params: parameters
          .filter((p) => p.in === 'path')
          .map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} })),
        headers: parameters
          .filter((p) => p.in === 'header')
          .map((p) => ({
            name: p.name.toLowerCase(),
            required: p.required === true,
            schema: p.schema ?? {},
          })),
        body: op.requestBody?.content?.['application/json']?.schema,
      })
    }
  }
  return routes
}

/** mulberry32: small, fast, and the same sequence on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export class Rng {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n)
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!
  }
  chance(p: number): boolean {
    return this.next() < p
  }
}

// JSON cannot spell these; the generator writes a marker string and the serializer swaps it for
// the bare token, so the server's JSON parser meets them (NaN and Infinity are not JSON at all;
// 1e999 is JSON that parses to Infinity).
const RAW = { NaN: '\u0001RAW:NaN', Infinity: '\u0001RAW:Infinity', Big: '\u0001RAW:1e999' }

const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202e\u0627\u0644\u0639\u0631\u0628\u064a\u0629',
  '🪙💰👨‍👩‍👧‍👦',
  'e\u0301\u0301\u0301\u0301\u0301',
  '\ufeffBOM',
  'Ａ１２３',
  '\u2028\u2029',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../../etc/passwd',
  '%00',
  '__proto__',
  'constructor',
  'javascript:alert(1)',
  'data:text/html,<b>x</b>',
  'null',
  'NaN',
  '-1',
  '1.5',
  '1e308',
  '0x10',
  '2026-02-30T25:61:00Z',
  'x'.repeat(5_000),
  '中'.repeat(2_049),
]

const NASTY_NUMBERS: readonly unknown[] = [
  -1,
  0,
  -0,
  0.5,
  -0.5,
  1.0000001,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  1e21,
  1e308,
  -1e308,
  5e-324,
  RAW.NaN,
  RAW.Infinity,
  RAW.Big,
]

const NASTY_OTHERS: readonly unknown[] = [
  null,
  true,
  false,
  [],
  {},
  [1, 2, 3],
  { a: 1 },
  ['\u0000'],
  { __proto__: { admin: true } },
]

export function deepNesting(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
}

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null')
  if (schema.type) return schema.type
  const branch = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema.allOf?.[0]
  return branch ? typeOf(branch) : undefined
}

const PATTERN_CANDIDATES = ['1', '12', 'abc', 'ABCDEFGH', 'a1b2c3d4e5', '13800000000', 'M1', '0001']

/** A value the schema plausibly accepts (a base to break one piece of). */
export function validValue(schema: JsonSchema, rng: Rng): unknown {
  if (schema.const !== undefined) return schema.const
  if (schema.enum?.length) return rng.pick(schema.enum)
  if (schema.default !== undefined && rng.chance(0.3)) return schema.default
  const branch = schema.anyOf ?? schema.oneOf
  if (branch?.length) return validValue(rng.pick(branch), rng)
  switch (typeOf(schema) ?? 'unknown') {
    case 'integer':
    case 'number': {
      let low = schema.minimum ?? 1
      if (schema.exclusiveMinimum === true) low += 1
      if (typeof schema.exclusiveMinimum === 'number') low = schema.exclusiveMinimum + 1
      const high = schema.maximum ?? low + 1000
      return Math.max(low, Math.min(high, low + rng.int(100)))
    }
    case 'boolean':
      return rng.chance(0.5)
    case 'string': {
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString()
      if (schema.format === 'date') return '2026-12-01'
      const min = schema.minLength ?? 1
      const max = schema.maxLength ?? 64
      if (schema.pattern) {
        const re = new RegExp(schema.pattern, 'u')
        const fit = PATTERN_CANDIDATES.find((c) => re.test(c) && c.length >= min && c.length <= max)
        if (fit) return fit
      }
      return 'x'.repeat(Math.min(max, Math.max(min, 3)))
    }
    case 'array': {
      const n = schema.minItems ?? 0
      return Array.from({ length: n }, () => validValue(schema.items ?? {}, rng))
    }
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || rng.chance(0.5)) out[key] = validValue(prop, rng)
      }
      return out
    }
    default:
      return 'x'
  }
}

/** A value that breaks the schema: its type's worst cases, or another type altogether. */
export function invalidValue(schema: JsonSchema, rng: Rng): unknown {
  const type = typeOf(schema)
  const roll = rng.next()
  if (roll < 0.35) return rng.pick(NASTY_STRINGS)
  if (roll < 0.65) return rng.pick(NASTY_NUMBERS)
  if (roll < 0.8) return rng.pick(NASTY_OTHERS)
  switch (type ?? 'unknown') {
    case 'string':
      return (schema.maxLength ?? 2_000) < 100_000
        ? 'é'.repeat((schema.maxLength ?? 2_000) + 1)
        : rng.pick(NASTY_STRINGS)
    case 'integer':
    case 'number':
      return rng.pick([(schema.maximum ?? 1e15) + 1, (schema.minimum ?? 0) - 1, 3.25, '12'])
    case 'array':
      return Array.from({ length: (schema.maxItems ?? 1_000) + 1 }, () => 1)
    case 'object':
      return [validValue(schema, rng)]
    default:
      return { nested: [[[{ a: rng.pick(NASTY_STRINGS) }]]] }
  }
}

export function serialize(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll(`"${JSON.stringify(RAW.NaN).slice(1, -1)}"`, 'NaN')
    .replaceAll(`"${JSON.stringify(RAW.Infinity).slice(1, -1)}"`, 'Infinity')
    .replaceAll(`"${JSON.stringify(RAW.Big).slice(1, -1)}"`, '1e999')
}

/** How a value reads in a URL: percent-encoded, with lone surrogates as the bytes a client might send. */
function urlPiece(value: unknown): string {
  const text = typeof value === 'string' ? value : serialize(value)
  try {
    return encodeURIComponent(text)
  } catch {
    return '%ED%A0%80' // a UTF-8-encoded lone surrogate: not valid UTF-8
  }
}

const RAW_URL_PIECES = [
  '%',
  '%zz',
  '%ED%A0%80',
  '%FF',
  '%00',
  '%C0%AF',
  '..',
  '%2F',
  '%E2%80%AE',
  'a'.repeat(1_100),
]

function pathValue(value: unknown, rng: Rng): { piece: string; raw: boolean } {
  if (rng.chance(0.15)) return { piece: rng.pick(RAW_URL_PIECES), raw: true }
  const piece = urlPiece(value)
  return { piece: piece === '' ? '%20' : piece, raw: false }
}

export interface FuzzRequest {
  /** Which mutation made it (for the tally and a failure's message). */
  kind: string
  method: Method
  /** Path with query string, as sent. */
  url: string
  payload?: string
  contentType?: string
  /** Declared header parameters, valid or (kind `header`) broken; sent under the signing ones. */
  headers?: Record<string, string>
  /**
   * The path holds a raw piece (`%`, `..`, `%2F`…) that the URL parser or router may read
   * otherwise than the client signed it: a signature refusal is then an expected answer.
   */
  rawPath?: boolean
}

const MALFORMED_JSON = [
  '{',
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '\ufeff{}',
  '{"a":"\\ud800"}',
  '{"a":"\\u00"}',
  'nul',
  '[1,2',
  '{"a":NaN}',
  '{"a":Infinity}',
  '"unterminated',
  '{"__proto__":{"x":1}}',
  '\u0000',
]

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/jsonx',
  'image/png',
]

/** Fills `{name}` placeholders; `broken` names the one to break, if any. */
function buildPath(
  route: FuzzRoute,
  rng: Rng,
  fixed: Record<string, string>,
  broken?: string,
): { path: string; raw: boolean } {
  let path = route.path
  let raw = false
  for (const p of route.params) {
    let value: string
    if (p.name === broken) {
      const v = pathValue(invalidValue(p.schema, rng), rng)
      value = v.piece
      raw = v.raw
    } else {
      value = fixed[p.name] ?? urlPiece(validValue(p.schema, rng))
    }
    path = path.replace(`{${p.name}}`, value)
  }
  return { path, raw }
}

/** Whether a header value passes the declared string schema (length and pattern). */
function headerFits(schema: JsonSchema, value: string): boolean {
  if (value.length < (schema.minLength ?? 0)) return false
  if (value.length > (schema.maxLength ?? Infinity)) return false
  return !schema.pattern || new RegExp(schema.pattern).test(value)
}

/** A fresh value a header's schema accepts (each request its own: a reused key is a replay). */
function validHeader(schema: JsonSchema, rng: Rng): string {
  const min = schema.minLength ?? 1
  const max = schema.maxLength ?? 64
  const value = `fz-${rng.int(2 ** 31).toString(36)}${rng.int(2 ** 31).toString(36)}`
  return value.padEnd(min, '0').slice(0, max)
}

/**
 * Header values that break a string schema: lengths either side of the bounds, characters outside
 * the pattern (ASCII and Latin-1 only, what an HTTP client can put on the wire; CR, LF and NUL
 * never reach the app), and two values joined as Node joins a repeated header. Only those the
 * schema really refuses.
 */
function invalidHeaders(schema: JsonSchema, rng: Rng): string[] {
  const base = validHeader(schema, rng)
  const min = schema.minLength ?? 0
  const max = schema.maxLength ?? 8_000
  const cut = Math.max(1, Math.floor(base.length / 2))
  const candidates = [
    '',
    ' ',
    'x'.repeat(Math.max(0, min - 1)),
    'k'.repeat(max + 1),
    'k'.repeat(8_000),
    `${base}, ${base}`,
    ...[' ', '/', '.', ':', '+', '=', '"', ',', ';', '%', '\t', 'é', '\u00a0', '*', '<'].map(
      (c) => `${base.slice(0, cut)}${c}${base.slice(cut)}`,
    ),
    ` ${base}`,
    `${base}%00`,
    '../../etc/passwd',
    "' OR 1=1 --",
    'null',
    '-1',
  ]
  return candidates.filter((c) => !headerFits(schema, c))
}

/** Declared headers: each left valid (when required, or half the time), or the broken one. */
function buildHeaders(
  route: FuzzRoute,
  rng: Rng,
  broken?: string,
): Record<string, string> | undefined {
  const out: Record<string, string> = {}
  for (const h of route.headers) {
    if (h.name === broken) {
      const bad = invalidHeaders(h.schema, rng)
      // Missing is invalid only where the header is required.
      if (h.required && (bad.length === 0 || rng.chance(0.2))) continue
      if (bad.length) out[h.name] = rng.pick(bad)
    } else if (h.required || rng.chance(0.5)) {
      out[h.name] = validHeader(h.schema, rng)
    }
  }
  return Object.keys(out).length ? out : undefined
}

function buildQuery(route: FuzzRoute, rng: Rng, broken?: string, extra = false): string {
  const parts: string[] = []
  for (const q of route.query) {
    if (q.name === broken) {
      const value = invalidValue(q.schema, rng)
      if (rng.chance(0.2)) parts.push(`${q.name}=1`) // repeated key: an array where one was meant
      parts.push(
        `${encodeURIComponent(q.name)}=${rng.chance(0.1) ? rng.pick(RAW_URL_PIECES) : urlPiece(value)}`,
      )
    } else if (q.required || rng.chance(0.3)) {
      parts.push(`${encodeURIComponent(q.name)}=${urlPiece(validValue(q.schema, rng))}`)
    }
  }
  if (extra) {
    parts.push(
      `${rng.pick(['x', '__proto__', 'a[b]', 'constructor', '%00'])}=${urlPiece(rng.pick(NASTY_STRINGS))}`,
    )
  }
  return parts.length ? `?${parts.join('&')}` : ''
}

function baseBody(route: FuzzRoute, rng: Rng): Record<string, unknown> {
  const value = validValue(route.body ?? { type: 'object' }, rng)
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}
}

/** A plausible body with one to three fields broken (or the plain body when there are none). */
function brokenBody(route: FuzzRoute, rng: Rng): Record<string, unknown> {
  const body = baseBody(route, rng)
  const props = route.body?.properties ?? {}
  const names = Object.keys(props)
  const count = names.length ? 1 + rng.int(Math.min(3, names.length)) : 0
  for (let i = 0; i < count; i++) {
    const name = rng.pick(names)
    body[name] = invalidValue(props[name]!, rng)
  }
  return body
}

/**
 * One invalid request for a route. `fixed` holds path values to use when a parameter is not the
 * one being broken (a real id, the caller's own user id), so the other pieces reach the handler.
 */
export function invalidRequest(
  route: FuzzRoute,
  rng: Rng,
  fixed: Record<string, string>,
): FuzzRequest {
  const request = mutated(route, rng, fixed)
  if (request.kind !== 'header') {
    const headers = buildHeaders(route, rng)
    if (headers) request.headers = headers
  }
  return request
}

function mutated(route: FuzzRoute, rng: Rng, fixed: Record<string, string>): FuzzRequest {
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE'
  const props = Object.keys(route.body?.properties ?? {})
  // An ignored query key or a body nobody reads is not invalid; such requests are sent only to
  // routes where something else is broken too (or to GETs, which change nothing).
  const kinds: string[] = route.method === 'GET' || props.length ? ['extra-query'] : []
  if (route.params.length) kinds.push('param', 'param')
  if (route.query.length) kinds.push('query', 'query', 'query')
  if (route.headers.length) kinds.push('header', 'header')
  if (hasBody) {
    kinds.push('content-type', 'malformed-json', 'empty-body', 'deep-nesting')
    if (route.body) kinds.push('body-shape')
    if (props.length)
      kinds.push('body-field', 'body-field', 'body-field', 'body-field', 'body-extra')
    if (route.body?.required?.length) kinds.push('body-missing', 'body-missing')
  }
  const kind = rng.pick(kinds)
  const json = 'application/json'
  const path = () => buildPath(route, rng, fixed).path
  const withBody = (payload: string, contentType = json): FuzzRequest => ({
    kind,
    method: route.method,
    url: path() + buildQuery(route, rng),
    payload,
    contentType,
  })
  switch (kind) {
    case 'param': {
      const broken = buildPath(route, rng, fixed, rng.pick(route.params).name)
      return {
        kind,
        method: route.method,
        url: broken.path + buildQuery(route, rng),
        ...(broken.raw && { rawPath: true }),
        ...(hasBody && { payload: serialize(brokenBody(route, rng)), contentType: json }),
      }
    }
    case 'header': {
      // Only the header is broken: the rest plausibly valid, so the header alone must refuse it.
      const headers = buildHeaders(route, rng, rng.pick(route.headers).name)
      return {
        kind,
        method: route.method,
        url: path() + buildQuery(route, rng),
        ...(headers && { headers }),
        ...(hasBody && { payload: serialize(baseBody(route, rng)), contentType: json }),
      }
    }
    case 'query':
    case 'extra-query':
      return {
        kind,
        method: route.method,
        url:
          path() +
          buildQuery(
            route,
            rng,
            kind === 'query' ? rng.pick(route.query).name : undefined,
            kind === 'extra-query',
          ),
        // An ignored query key leaves a valid body valid: break a field of it too.
        ...(hasBody && { payload: serialize(brokenBody(route, rng)), contentType: json }),
      }
    case 'content-type': {
      const body = rng.chance(0.5) ? serialize(brokenBody(route, rng)) : 'a=1&b=%00'
      return withBody(body, rng.pick(WRONG_CONTENT_TYPES))
    }
    case 'malformed-json':
      return withBody(rng.pick(MALFORMED_JSON))
    case 'empty-body':
      return withBody(rng.pick(route.body ? ['', ' ', '\n', 'null'] : ['', ' ', '\n']))
    case 'body-shape':
      return withBody(
        serialize(
          rng.pick<unknown>([[baseBody(route, rng)], 'text', 42, true, [], RAW.NaN, RAW.Big]),
        ),
      )
    case 'deep-nesting': {
      const depth = rng.pick([64, 1_000, 20_000])
      const nest = deepNesting(depth, rng.chance(0.5) ? 'array' : 'object')
      return withBody(props.length && rng.chance(0.6) ? `{"${rng.pick(props)}":${nest}}` : nest)
    }
    case 'body-field':
      return withBody(serialize(brokenBody(route, rng)))
    case 'body-missing': {
      const required = route.body?.required ?? []
      const dropped = rng.chance(0.3) ? required : [rng.pick(required)]
      const body = Object.fromEntries(
        Object.entries(baseBody(route, rng)).filter(([name]) => !dropped.includes(name)),
      )
      return withBody(serialize(body))
    }
    case 'body-extra': {
      const body = baseBody(route, rng)
      body[rng.pick(['extra', '__proto__', 'userId', 'id', 'isAdmin', '\u0000', '🪙'])] = rng.pick([
        ...NASTY_STRINGS,
        ...NASTY_OTHERS,
      ])
      // …and one field broken, so the request is invalid whether or not extras are stripped.
      const props = route.body?.properties ?? {}
      const name = rng.pick(Object.keys(props))
      body[name] = invalidValue(props[name]!, rng)
      return withBody(serialize(body))
    }
    default:
      throw new Error(`unknown mutation ${kind}`)
  }
}
