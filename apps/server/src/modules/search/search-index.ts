import { bigrams, expandTerm, normalise } from './text'

/**
 * An in-memory inverted-ish index over a few thousand items: each document keeps its normalised
 * fields, and a query term matches when one of its variants (nickname-expanded) appears in full,
 * or — for typos and word-order changes — when most of its bigrams appear in the title.
 */
export interface SearchDocument {
  id: number
  title: string
  /** Secondary text: subtitle, description, year, denomination, material, grading, cert. */
  body: string
}

interface IndexedDocument {
  id: number
  title: string
  body: string
  titleBigrams: Set<string>
}

const TITLE_WEIGHT = 3
const BODY_WEIGHT = 1
const FUZZY_WEIGHT = 0.5
const FUZZY_COVERAGE = 0.75

export class SearchIndex {
  private readonly docs: IndexedDocument[]

  constructor(documents: SearchDocument[]) {
    this.docs = documents.map((d) => {
      const title = normalise(d.title)
      return { id: d.id, title, body: normalise(d.body), titleBigrams: new Set(bigrams(title)) }
    })
  }

  /**
   * Relevance by id for every document matching all terms of `keyword` (whitespace-separated).
   * Fuzzy (bigram) matches are a fallback for when nothing matches exactly: otherwise 三年袁大头
   * would also bring back 十年 coins, which a collector asking for 三年 does not want.
   */
  search(keyword: string): Map<number, number> {
    const exact = this.match(keyword, false)
    return exact.size > 0 ? exact : this.match(keyword, true)
  }

  private match(keyword: string, fuzzy: boolean): Map<number, number> {
    const terms = keyword
      .split(/\s+/)
      .map((t) => expandTerm(t))
      .filter((variants) => variants.length > 0)
    const scores = new Map<number, number>()
    if (terms.length === 0) return scores
    for (const doc of this.docs) {
      let total = 0
      for (const variants of terms) {
        const score = termScore(doc, variants, fuzzy)
        if (score === 0) {
          total = 0
          break
        }
        total += score
      }
      if (total > 0) scores.set(doc.id, total)
    }
    return scores
  }
}

function termScore(doc: IndexedDocument, variants: string[], fuzzy: boolean): number {
  let best = 0
  for (const variant of variants) {
    const pieces = variant.split('\u0000')
    if (pieces.every((p) => doc.title.includes(p))) best = Math.max(best, TITLE_WEIGHT)
    else if (pieces.every((p) => doc.title.includes(p) || doc.body.includes(p))) {
      best = Math.max(best, BODY_WEIGHT)
    } else if (fuzzy) {
      const grams = bigrams(pieces.join(''))
      if (grams.length >= 3) {
        const hit = grams.filter((g) => doc.titleBigrams.has(g)).length
        if (hit / grams.length >= FUZZY_COVERAGE) best = Math.max(best, FUZZY_WEIGHT)
      }
    }
  }
  return best
}
