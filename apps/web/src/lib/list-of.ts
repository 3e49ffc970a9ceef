/** A schema for a list of items checked one by one (request() takes any `{ parse }`). */
export function listOf<T>(item: { parse(value: unknown): T }): { parse(value: unknown): T[] } {
  return {
    parse(value) {
      if (!Array.isArray(value)) throw new TypeError('expected a list')
      return value.map((entry) => item.parse(entry))
    },
  }
}
