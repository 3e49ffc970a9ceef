/**
 * Text handling for Chinese-first search: normalisation, collectors' nicknames and character
 * bigrams. Collectors search by nickname (袁大头, 船洋, 大团结) far more than by catalogue title
 * (民国三年袁世凯像壹圆), so nicknames expand to the phrases titles actually use.
 */

/** Nickname → phrases that appear in titles. Longer nicknames are applied first. */
export const NICKNAMES: Record<string, string[]> = {
  袁大头: ['袁世凯像'],
  大头: ['袁世凯像'],
  孙小头: ['孙中山像'],
  小头: ['孙中山像'],
  船洋: ['帆船'],
  龙洋: ['光绪元宝', '大清银币', '宣统元宝'],
  站洋: ['站人'],
  大团结: ['第三套人民币拾圆', '拾圆大团结'],
  苏三币: ['第二套人民币叁圆'],
  黑十元: ['第二套人民币拾圆'],
  长城币: ['长城'],
  开国币: ['开国纪念币'],
  一版币: ['第一套人民币'],
  二版币: ['第二套人民币'],
  三版币: ['第三套人民币'],
  四版币: ['第四套人民币'],
  五版币: ['第五套人民币'],
  银元: ['壹圆', '银币'],
  熊猫币: ['熊猫'],
}

const NICKNAMES_BY_LENGTH = Object.keys(NICKNAMES).sort((a, b) => b.length - a.length)

/** Lower-case, full-width → half-width, and drop spaces and punctuation. */
export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, '')
}

/** The ways a query term may appear in a title: itself, and with each nickname expanded. */
export function expandTerm(term: string): string[] {
  const base = normalise(term)
  if (!base) return []
  const variants = new Set([base])
  for (const nickname of NICKNAMES_BY_LENGTH) {
    for (const variant of [...variants]) {
      if (!variant.includes(nickname)) continue
      const [before, ...rest] = variant.split(nickname)
      const after = rest.join(nickname)
      for (const phrase of NICKNAMES[nickname]!) {
        // "三年袁大头" → "三年" … "袁世凯像": keep the parts as separate required pieces.
        variants.add([before, phrase, after].filter(Boolean).join('\u0000'))
      }
    }
  }
  return [...variants]
}

/** Overlapping character pairs, the unit of fuzzy Chinese matching. */
export function bigrams(text: string): string[] {
  const chars = Array.from(text)
  if (chars.length < 2) return chars
  const out: string[] = []
  for (let i = 0; i < chars.length - 1; i++) out.push(chars[i]! + chars[i + 1]!)
  return out
}
