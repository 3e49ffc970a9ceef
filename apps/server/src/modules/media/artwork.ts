/**
 * Generated pictures of coins and banknotes (DESIGN §8: never downloaded). Each picture is a pure
 * function of its parameters, so the same item always looks the same and no two items look alike.
 */
export interface CoinArt {
  kind: 'coin'
  seed: number
  /** Inscription on the face, e.g. 壹圆. */
  face: string
  /** Legend around the rim, e.g. 中华民国三年. */
  legend: string
  metal: 'silver' | 'gold' | 'copper' | 'brass'
  /** Square-holed cash coin (ancient) or a struck coin with a motif. */
  holed: boolean
  side: 'obverse' | 'reverse'
}

export interface NoteArt {
  kind: 'note'
  seed: number
  face: string
  legend: string
  serial: string
  hue: number
  side: 'obverse' | 'reverse'
}

export type Artwork = CoinArt | NoteArt

const METALS = {
  silver: ['#f4f5f7', '#b9bec7', '#7c838f'],
  gold: ['#fff3c4', '#e3b64b', '#9a6b12'],
  copper: ['#f3c7a6', '#b8703f', '#6e3a18'],
  brass: ['#f1e2b0', '#b89b4e', '#6b5522'],
} as const

/** Small deterministic PRNG (mulberry32) so pictures vary per seed but never between renders. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const escapeXml = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)

function arcText(id: string, text: string, radius: number, size: number, color: string): string {
  return `<defs><path id="${id}" d="M 200 ${200 + radius} A ${radius} ${radius} 0 1 1 200.1 ${200 + radius}"/></defs>
<text font-family="serif" font-size="${size}" fill="${color}" letter-spacing="6"><textPath href="#${id}" startOffset="50%" text-anchor="middle">${escapeXml(text)}</textPath></text>`
}

function coin(art: CoinArt): string {
  const rnd = random(art.seed)
  const [light, mid, dark] = METALS[art.metal]
  const toning = Math.floor(rnd() * 40)
  const dots = Array.from({ length: 72 }, (_, i) => {
    const a = (i / 72) * Math.PI * 2
    return `<circle cx="${(200 + Math.cos(a) * 172).toFixed(1)}" cy="${(200 + Math.sin(a) * 172).toFixed(1)}" r="2.4" fill="${dark}" opacity="0.55"/>`
  }).join('')
  const motif = art.holed
    ? art.side === 'reverse'
      ? `<rect x="168" y="168" width="64" height="64" fill="#f6f1e7" stroke="${dark}" stroke-width="6"/>
         <circle cx="200" cy="200" r="${60 + rnd() * 6}" fill="none" stroke="${dark}" stroke-width="3" opacity="0.5"/>`
      : `<rect x="168" y="168" width="64" height="64" fill="#f6f1e7" stroke="${dark}" stroke-width="6"/>
       ${Array.from(art.face)
         .slice(0, 4)
         .map((ch, i) => {
           const [x, y] = [
             [200, 138],
             [200, 292],
             [268, 215],
             [132, 215],
           ][i]!
           return `<text x="${x}" y="${y}" font-family="serif" font-size="52" text-anchor="middle" fill="${dark}">${escapeXml(ch)}</text>`
         })
         .join('')}`
    : art.side === 'obverse'
      ? `<ellipse cx="200" cy="178" rx="${54 + rnd() * 10}" ry="${66 + rnd() * 8}" fill="${mid}" opacity="0.85"/>
         <path d="M ${130 + rnd() * 10} 290 Q 200 ${200 + rnd() * 20} ${270 - rnd() * 10} 290 Z" fill="${mid}" opacity="0.85"/>
         ${arcText(`l${art.seed}`, art.legend, 140, 26, dark)}`
      : `<text x="200" y="228" font-family="serif" font-size="84" text-anchor="middle" fill="${dark}">${escapeXml(art.face)}</text>
         <path d="M 110 270 Q 200 ${300 + rnd() * 20} 290 270" stroke="${dark}" stroke-width="5" fill="none"/>
         <path d="M 110 150 Q 200 ${120 - rnd() * 20} 290 150" stroke="${dark}" stroke-width="5" fill="none"/>
         ${arcText(`l${art.seed}`, art.legend, 140, 22, dark)}`
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400">
<defs><radialGradient id="g${art.seed}" cx="${35 + toning / 4}%" cy="30%" r="80%">
<stop offset="0%" stop-color="${light}"/><stop offset="60%" stop-color="${mid}"/><stop offset="100%" stop-color="${dark}"/></radialGradient></defs>

<circle cx="200" cy="200" r="190" fill="url(#g${art.seed})" stroke="${dark}" stroke-width="6"/>
<circle cx="200" cy="200" r="160" fill="none" stroke="${dark}" stroke-width="2" opacity="0.6"/>
${dots}${motif}
</svg>`
}

function note(art: NoteArt): string {
  const rnd = random(art.seed)
  const h = art.hue
  const lines = Array.from({ length: 14 }, (_, i) => {
    const y = 40 + i * 18 + rnd() * 4
    return `<path d="M 20 ${y} Q 300 ${y + 20 - rnd() * 40} 580 ${y}" stroke="hsl(${h} 40% 45%)" stroke-width="0.8" fill="none" opacity="0.5"/>`
  }).join('')
  const front =
    art.side === 'obverse'
      ? `<ellipse cx="${430 + rnd() * 20}" cy="150" rx="70" ry="84" fill="hsl(${h} 35% 70%)" stroke="hsl(${h} 45% 30%)" stroke-width="3"/>
         <text x="150" y="120" font-family="serif" font-size="30" text-anchor="middle" fill="hsl(${h} 55% 22%)">${escapeXml(art.legend)}</text>
         <text x="150" y="200" font-family="serif" font-size="64" text-anchor="middle" fill="hsl(${h} 60% 25%)">${escapeXml(art.face)}</text>`
      : `<rect x="190" y="80" width="220" height="140" rx="12" fill="hsl(${h} 35% 72%)" stroke="hsl(${h} 45% 30%)" stroke-width="3"/>
         <text x="300" y="170" font-family="serif" font-size="56" text-anchor="middle" fill="hsl(${h} 60% 25%)">${escapeXml(art.face)}</text>`
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 300" width="600" height="300">

<rect x="10" y="10" width="580" height="280" rx="10" fill="hsl(${h} 45% 86%)" stroke="hsl(${h} 50% 30%)" stroke-width="8"/>
${lines}${front}
<text x="40" y="270" font-family="monospace" font-size="22" fill="#a3261d">${escapeXml(art.serial)}</text>
<text x="560" y="50" font-family="serif" font-size="34" text-anchor="end" fill="hsl(${h} 60% 25%)">${escapeXml(art.face)}</text>
</svg>`
}

export function renderArtwork(art: Artwork): string {
  return art.kind === 'coin' ? coin(art) : note(art)
}
