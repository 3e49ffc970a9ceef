import { describe, expect, it } from 'vitest'
import {
  afterFirstScreen,
  FIRST_SCREEN_ID,
  PICTURE_WAIT_MS,
  preloadListed,
  releaseFirstScreen,
  reloadOnce,
} from './first-screen-paint'

/** A page with or without the server's first screen and its main picture's preload. */
function pageWith({ first, picture }: { first: boolean; picture?: string }) {
  const removed: string[] = []
  const element = {
    remove: () => removed.push(FIRST_SCREEN_ID),
    querySelector: (selector: string) =>
      selector === '[data-testid=page-body]' ? { scrollTop: 420 } : null,
    querySelectorAll: () => [],
    ownerDocument: { activeElement: null },
  }
  const doc = {
    getElementById: (id: string) => (first && id === FIRST_SCREEN_ID ? element : null),
    querySelector: (selector: string) =>
      picture !== undefined && selector.includes('fetchpriority="high"')
        ? { getAttribute: (name: string) => (name === 'href' ? picture : null) }
        : null,
  } as unknown as Document
  return { doc, removed }
}

/** Frames, timers and the picture's decode, each let go by the test. */
function controlled() {
  const frames: (() => void)[] = []
  const timers: { ms: number; run: () => void }[] = []
  const pictures: { href: string; settle: (ok: boolean) => void }[] = []
  return {
    frames,
    timers,
    pictures,
    deps: {
      frame: (callback: () => void) => frames.push(callback),
      timer: (run: () => void, ms: number) => timers.push({ ms, run }),
      picture: (href: string) =>
        new Promise((resolve, reject) => {
          pictures.push({ href, settle: (ok) => (ok ? resolve(undefined) : reject(new Error())) })
        }),
    },
  }
}

/** Whether the promise has resolved once the microtasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending')
  const tick = new Promise((resolve) => setTimeout(() => resolve(pending), 0))
  return (await Promise.race([promise, tick])) !== pending
}

describe('when the app may load (ADR 026 §9)', () => {
  it('at once on a page the server did not render', async () => {
    const c = controlled()
    const { doc } = pageWith({ first: false, picture: '/a.svg' })
    expect(await settled(afterFirstScreen({ doc, ...c.deps }))).toBe(true)
    expect(c.frames).toHaveLength(0)
    expect(c.pictures).toHaveLength(0)
  })

  it('after its main picture has loaded and a frame has painted it', async () => {
    const c = controlled()
    const { doc } = pageWith({ first: true, picture: '/banner.svg' })
    const ready = afterFirstScreen({ doc, ...c.deps })
    expect(c.pictures.map((p) => p.href)).toEqual(['/banner.svg'])
    // No frame is waited for before the picture is there: the one after it is what counts.
    await settled(ready)
    expect(c.frames).toHaveLength(0)
    c.pictures[0]!.settle(true)
    expect(await settled(ready)).toBe(false)
    c.frames.shift()!()
    expect(await settled(ready)).toBe(false)
    c.frames.shift()!()
    c.timers.find((t) => t.ms === 0)!.run()
    expect(await settled(ready)).toBe(true)
  })

  it('a picture that fails, or takes too long, does not hold the app back', async () => {
    for (const outcome of ['failed', 'slow'] as const) {
      const c = controlled()
      const { doc } = pageWith({ first: true, picture: '/banner.svg' })
      const ready = afterFirstScreen({ doc, ...c.deps })
      if (outcome === 'failed') c.pictures[0]!.settle(false)
      else c.timers.find((t) => t.ms === PICTURE_WAIT_MS)!.run()
      await settled(ready)
      c.frames.shift()!()
      c.frames.shift()!()
      c.timers.find((t) => t.ms === 0)!.run()
      expect(await settled(ready), outcome).toBe(true)
    }
  })

  it('without a main picture, after the frame alone', async () => {
    const c = controlled()
    const { doc } = pageWith({ first: true })
    const ready = afterFirstScreen({ doc, ...c.deps })
    expect(await settled(ready)).toBe(false)
    c.frames.shift()!()
    c.frames.shift()!()
    c.timers.find((t) => t.ms === 0)!.run()
    expect(await settled(ready)).toBe(true)
  })

  it('the first screen is taken away, with how far its page was scrolled', () => {
    const { doc, removed } = pageWith({ first: true })
    expect(releaseFirstScreen(doc)).toBe(420)
    expect(removed).toEqual([FIRST_SCREEN_ID])
    expect(releaseFirstScreen(pageWith({ first: false }).doc)).toBeUndefined()
  })

  it('preloads the scripts listed for after the first screen, and nothing else', () => {
    const added: { rel: string; href: string; crossOrigin: string | null }[] = []
    const doc = {
      baseURI: 'http://shop.test/specialDetail?id=1',
      createElement: () => ({ rel: '', href: '', crossOrigin: null }),
      head: { append: (link: (typeof added)[number]) => added.push(link) },
    } as unknown as Document
    preloadListed(
      ['/assets/a.js', 'https://elsewhere/b.js', '//elsewhere/b.js', 3, '/assets/c.js'],
      doc,
    )
    expect(added).toEqual([
      { rel: 'modulepreload', href: '/assets/a.js', crossOrigin: '' },
      { rel: 'modulepreload', href: '/assets/c.js', crossOrigin: '' },
    ])
    preloadListed(undefined, doc)
    expect(added).toHaveLength(2)
  })

  it('an app that failed to load is loaded again once, never in a loop, and never offline', () => {
    const stored = new Map<string, string>()
    const storage = {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
    }
    let reloads = 0
    const reload = () => reloads++
    expect(reloadOnce(storage, reload)).toBe(true)
    expect(reloadOnce(storage, reload)).toBe(false)
    expect(reloads).toBe(1)

    // Offline: nothing now, the reload once the connection is back.
    stored.clear()
    let back = () => {}
    const offline = { onLine: false, whenOnline: (retry: () => void) => (back = retry) }
    expect(reloadOnce(storage, reload, offline)).toBe(false)
    expect(reloads).toBe(1)
    back()
    expect(reloads).toBe(2)

    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('quota')
      },
    }
    expect(reloadOnce(refusing, reload)).toBe(false)
    expect(reloads).toBe(2)
  })
})
