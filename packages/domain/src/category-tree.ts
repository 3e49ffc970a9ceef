/**
 * Walks over a category tree (the mall's: 钱币 › 古钱币 › …), given as rows with their parent.
 * Pure, so the catalogue (a coupon for 钱币 covers 古钱币) and search (a parent's 全部 lists its
 * children's items) read one tree the same way. Bad data with a cycle ends a walk, never loops.
 */
export interface CategoryNode {
  id: number
  parentId: number | null
}

/** The category and every category above it, nearest first; empty for no category. */
export function categoryAncestry(
  categories: readonly CategoryNode[],
  categoryId: number | null,
): number[] {
  const parents = new Map(categories.map((c) => [c.id, c.parentId]))
  const chain: number[] = []
  for (let next = categoryId; next !== null && !chain.includes(next);) {
    chain.push(next)
    next = parents.get(next) ?? null
  }
  return chain
}

/** Each category's id with the ids of itself and all its descendants, at any depth. */
export function categoryDescendants(categories: readonly CategoryNode[]): Map<number, Set<number>> {
  const children = new Map<number, number[]>()
  for (const c of categories) {
    if (c.parentId === null) continue
    children.set(c.parentId, [...(children.get(c.parentId) ?? []), c.id])
  }
  const result = new Map<number, Set<number>>()
  for (const c of categories) {
    const seen = new Set<number>([c.id])
    const stack = [c.id]
    while (stack.length > 0) {
      for (const child of children.get(stack.pop()!) ?? []) {
        if (seen.has(child)) continue
        seen.add(child)
        stack.push(child)
      }
    }
    result.set(c.id, seen)
  }
  return result
}
