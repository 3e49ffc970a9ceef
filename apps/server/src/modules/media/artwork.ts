/**
 * Generated pictures of coins, banknotes and collecting supplies (DESIGN §8: never downloaded). Each picture is a pure
 * function of its parameters, so the same item always looks the same and no two items look alike.
 */
export interface CoinArt {
  kind: 'coin'
  seed: number
  /** Inscription on the face, e.g. 壹圆. */
  face: string
  /** Legend around the rim, e.g. 中华民国三年. */
  legend: string
  metal: 'silver' | 'gold' | 'copper' | 'brass' | 'nickel'
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

/** Collecting supplies: a slab holder, a coin album or a loupe. */
export interface SupplyArt {
  kind: 'supply'
  seed: number
  tool: 'slab' | 'album' | 'loupe'
  /** Printed on the slab's label or the album's cover; the loupe shows its magnification. */
  label: string
  hue: number
  /** Obverse: the thing itself; reverse: it in use (slab's back, album open, loupe over a coin). */
  side: 'obverse' | 'reverse'
}

export type Artwork = CoinArt | NoteArt | SupplyArt

const METALS = {
  silver: ['#f4f5f7', '#b9bec7', '#7c838f'],
  gold: ['#fff3c4', '#e3b64b', '#9a6b12'],
  copper: ['#f3c7a6', '#b8703f', '#6e3a18'],
  brass: ['#f1e2b0', '#b89b4e', '#6b5522'],
  nickel: ['#f1f2ef', '#b4b9b2', '#6f756d'],
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

/** A note's legend fits its 250-pixel panel: Latin letters are about half as wide as Chinese. */
function legendSize(legend: string): number {
  const ems = Array.from(legend).reduce((w, ch) => w + (ch.charCodeAt(0) < 0x2e80 ? 0.6 : 1), 0)
  return Math.min(30, Math.floor(250 / Math.max(ems, 1)))
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
         <text x="150" y="120" font-family="serif" font-size="${legendSize(art.legend)}" text-anchor="middle" fill="hsl(${h} 55% 22%)">${escapeXml(art.legend)}</text>
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

const svg400 = (body: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400">
<rect width="400" height="400" fill="#f7f4ee"/>
${body}
</svg>`

/** A small struck coin (dots and a face) for the supplies to hold or magnify. */
function miniCoin(cx: number, cy: number, r: number, rnd: () => number): string {
  const [light, mid, dark] = METALS.silver
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${mid}" stroke="${dark}" stroke-width="${r / 18}"/>
<circle cx="${cx}" cy="${cy}" r="${r * 0.82}" fill="${light}" opacity="0.5"/>
<ellipse cx="${cx}" cy="${cy - r * 0.12}" rx="${r * (0.3 + rnd() * 0.06)}" ry="${r * 0.38}" fill="${mid}"/>
<path d="M ${cx - r * 0.42} ${cy + r * 0.55} Q ${cx} ${cy + r * 0.1} ${cx + r * 0.42} ${cy + r * 0.55} Z" fill="${mid}"/>`
}

function slab(art: SupplyArt, rnd: () => number): string {
  const h = art.hue
  const frame = `<rect x="92" y="24" width="216" height="352" rx="14" fill="hsl(${h} 20% 94%)" stroke="hsl(${h} 15% 62%)" stroke-width="6"/>
<rect x="106" y="38" width="188" height="324" rx="8" fill="none" stroke="#fff" stroke-width="3" opacity="0.8"/>`
  if (art.side === 'reverse') {
    const bars = Array.from({ length: 34 }, (_, i) => {
      const w = 1 + Math.floor(rnd() * 3)
      return `<rect x="${128 + i * 4.3}" y="64" width="${w}" height="40" fill="#222"/>`
    }).join('')
    return svg400(`${frame}
<rect x="116" y="52" width="168" height="66" rx="4" fill="#fff" stroke="hsl(${h} 15% 70%)"/>${bars}
<circle cx="200" cy="252" r="86" fill="none" stroke="hsl(${h} 15% 70%)" stroke-width="4"/>
<circle cx="200" cy="252" r="72" fill="hsl(${h} 10% 88%)" opacity="0.7"/>
<text x="200" y="350" font-family="sans-serif" font-size="14" text-anchor="middle" fill="#777">${escapeXml(art.label)}</text>`)
  }
  return svg400(`${frame}
<rect x="116" y="52" width="168" height="66" rx="4" fill="hsl(${h} 55% 42%)"/>
<text x="200" y="92" font-family="sans-serif" font-size="20" text-anchor="middle" fill="#fff">${escapeXml(art.label)}</text>
<circle cx="200" cy="252" r="86" fill="none" stroke="hsl(${h} 15% 70%)" stroke-width="4"/>
${miniCoin(200, 252, 70, rnd)}
<path d="M 120 140 L 160 140 M 240 360 L 290 300" stroke="#fff" stroke-width="6" opacity="0.6"/>`)
}

function album(art: SupplyArt, rnd: () => number): string {
  const h = art.hue
  if (art.side === 'reverse') {
    const pockets = Array.from({ length: 12 }, (_, i) => {
      const x = 80 + (i % 4) * 80
      const y = 110 + Math.floor(i / 4) * 90
      const filled = rnd() < 0.6
      return `<rect x="${x - 34}" y="${y - 36}" width="68" height="72" rx="4" fill="#fff" stroke="#ddd"/>
<circle cx="${x}" cy="${y}" r="28" fill="${filled ? METALS.silver[1] : '#f1f1f1'}" stroke="#c8c8c8" stroke-width="2"/>`
    }).join('')
    return svg400(`<rect x="20" y="50" width="360" height="300" rx="10" fill="hsl(${h} 45% 35%)"/>
<rect x="32" y="62" width="336" height="276" rx="4" fill="#fbfaf6"/>
<line x1="200" y1="62" x2="200" y2="338" stroke="hsl(${h} 30% 60%)" stroke-width="3"/>${pockets}`)
  }
  return svg400(`<rect x="78" y="34" width="250" height="336" rx="10" fill="hsl(${h} 45% 26%)"/>
<rect x="64" y="30" width="250" height="336" rx="10" fill="hsl(${h} 48% 36%)" stroke="hsl(${h} 50% 22%)" stroke-width="4"/>
<rect x="64" y="30" width="26" height="336" fill="hsl(${h} 50% 24%)"/>
<rect x="112" y="84" width="176" height="228" rx="6" fill="none" stroke="#e5c97a" stroke-width="3"/>
<circle cx="200" cy="170" r="${44 + rnd() * 6}" fill="none" stroke="#e5c97a" stroke-width="3"/>
<text x="200" y="182" font-family="serif" font-size="34" text-anchor="middle" fill="#e5c97a">藏</text>
<text x="200" y="270" font-family="serif" font-size="20" text-anchor="middle" fill="#e5c97a">${escapeXml(art.label)}</text>`)
}

function loupe(art: SupplyArt, rnd: () => number): string {
  const h = art.hue
  const body = `hsl(${h} 10% 25%)`
  if (art.side === 'reverse') {
    return svg400(`${miniCoin(200, 210, 150, rnd)}
<circle cx="200" cy="190" r="120" fill="#fff" opacity="0.18" stroke="${body}" stroke-width="18"/>
<path d="M 118 120 A 110 110 0 0 1 180 82" stroke="#fff" stroke-width="8" fill="none" opacity="0.7"/>
<rect x="${300 + rnd() * 4}" y="276" width="36" height="110" rx="12" fill="${body}" transform="rotate(-38 318 330)"/>`)
  }
  return svg400(`<rect x="220" y="236" width="40" height="150" rx="14" fill="${body}" transform="rotate(-45 240 300)"/>
<circle cx="170" cy="170" r="112" fill="hsl(${h} 40% 92%)" stroke="${body}" stroke-width="22"/>
<circle cx="170" cy="170" r="90" fill="#fff" opacity="0.35"/>
<path d="M 100 120 A 86 86 0 0 1 150 84" stroke="#fff" stroke-width="10" fill="none" opacity="0.85"/>
<text x="170" y="186" font-family="sans-serif" font-size="40" font-weight="bold" text-anchor="middle" fill="hsl(${h} 40% 30%)">${escapeXml(art.label)}</text>`)
}

function supply(art: SupplyArt): string {
  const rnd = random(art.seed)
  switch (art.tool) {
    case 'slab':
      return slab(art, rnd)
    case 'album':
      return album(art, rnd)
    case 'loupe':
      return loupe(art, rnd)
  }
}

export function renderArtwork(art: Artwork): string {
  switch (art.kind) {
    case 'coin':
      return coin(art)
    case 'note':
      return note(art)
    case 'supply':
      return supply(art)
  }
}
