import type { FastifyInstance } from 'fastify'

/** The parts of the app's OpenAPI document the security suites read. */
export interface OpenApiSchema {
  $ref?: string
  type?: string | string[]
  properties?: Record<string, OpenApiSchema>
  additionalProperties?: boolean | OpenApiSchema
  items?: OpenApiSchema | OpenApiSchema[]
  allOf?: OpenApiSchema[]
  anyOf?: OpenApiSchema[]
  oneOf?: OpenApiSchema[]
}
export interface OpenApiOperation {
  parameters?: { in: string; name: string; schema?: OpenApiSchema }[]
  requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> }
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>
  components?: { schemas?: Record<string, OpenApiSchema> }
  definitions?: Record<string, OpenApiSchema>
}

export const openApiOf = (app: FastifyInstance): OpenApiDocument =>
  app.swagger() as unknown as OpenApiDocument

/**
 * Every field a schema takes, however deep, as a path: `orderIds`, `items[].orderId`,
 * `address.regionId`. Reads `$ref`s of the document, allOf/anyOf/oneOf, nested objects, arrays
 * (of objects too) and records (`{}` for a record's values): an id named anywhere in an input is
 * found. The last segment is the field's own name.
 */
export function fieldPaths(
  doc: OpenApiDocument,
  schema: OpenApiSchema | undefined,
  prefix = '',
  seen = new Set<OpenApiSchema>(),
): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return []
  const inner = new Set(seen).add(schema)
  const walk = (s: OpenApiSchema | undefined, at: string) => fieldPaths(doc, s, at, inner)
  const out: string[] = []
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop()!
    out.push(...walk(doc.components?.schemas?.[name] ?? doc.definitions?.[name], prefix))
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const at = prefix ? `${prefix}.${name}` : name
    out.push(at, ...walk(property, at))
  }
  for (const part of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    out.push(...walk(part, prefix))
  const items = Array.isArray(schema.items) ? schema.items : schema.items ? [schema.items] : []
  for (const item of items) out.push(...walk(item, `${prefix}[]`))
  if (typeof schema.additionalProperties === 'object')
    out.push(...walk(schema.additionalProperties, `${prefix}{}`))
  return [...new Set(out)]
}

/** The JSON body's fields of an operation, however deep (fieldPaths). */
export const bodyFieldPaths = (doc: OpenApiDocument, op: OpenApiOperation): string[] =>
  fieldPaths(doc, op.requestBody?.content?.['application/json']?.schema)

/** A field path's own name: `items[].orderId` → `orderId`. */
export const leafOf = (fieldPath: string): string =>
  fieldPath
    .replace(/(\[\]|\{\})+$/, '')
    .split(/\.|\[\]|\{\}/)
    .pop() ?? fieldPath
