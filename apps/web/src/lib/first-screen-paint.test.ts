import { describe, expect, it } from 'vitest'
import {
  afterFirstScreen,
  FIRST_SCREEN_ID,
  PICTURE_WAIT_MS,
  PRELOAD_SLICE_MS,
  preloadListed,
  releaseFirstScreen,
  reloadOnce,
} from './first-screen-paint'

/** A page with or without the server's first screen and its main picture's preload. */
function pageWith({ first, picture }: { first: boolean; picture?: string }) {
  const removed: string[] = []
  const body = {
    scrollTop: 0,
    onScroll: undefined as (() => void) | undefined,
    addEventListener(type: string, listener: () => void) {
      if (type === 'scroll') body.onScroll = listener
    },
    /** The reader scrolls the first screen's page. */
    scrollTo(top: number) {
      body.scrollTop = top
      body.onScroll?.()
    },
  }
  const element = {
    remove: () => removed.push(FIRST_SCREEN_ID),
    querySelector: (selector: string) => (selector === '[data-testid=page-body]' ? body : null),
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
  return { doc, removed, body }
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

  it('the first screen is taken away, with how far its page was scrolled', async () => {
    const c = controlled()
    const { doc, removed, body } = pageWith({ first: true })
    // Scrolled before the entry ran: read once the first screen has painted.
    body.scrollTop = 300
    const ready = afterFirstScreen({ doc, ...c.deps })
    expect(await settled(ready)).toBe(false)
    c.frames.shift()!()
    c.frames.shift()!()
    c.timers.find((t) => t.ms === 0)!.run()
    await ready
    body.scrollTop = 360 // the layout moved it, no scroll: not read again (that would lay out)
    expect(releaseFirstScreen(doc)).toBe(300)
    // Then followed as the reader scrolls.
    body.scrollTo(420)
    expect(releaseFirstScreen(doc)).toBe(420)
    expect(removed).toEqual([FIRST_SCREEN_ID, FIRST_SCREEN_ID])
    expect(releaseFirstScreen(pageWith({ first: false }).doc)).toBeUndefined()
  })

  it('preloads the scripts listed for after the first screen, and nothing else, a few per task', async () => {
    const events: string[] = []
    let now = 0
    const doc = {
      baseURI: 'http://shop.test/specialDetail?id=1',
      createElement: () => ({ rel: '', href: '', crossOrigin: null }),
      head: {
        append: (link: { rel: string; href: string; crossOrigin: string | null }) => {
          events.push(`${link.rel} ${link.href} ${link.crossOrigin}`)
          now += 1.5 // what starting a request costs the main thread
        },
      },
    } as unknown as Document
    // The next task comes only when the test says so: nothing may be asked for before it.
    let nextTask = () => {}
    const pause = () => {
      events.push('pause')
      return new Promise<void>((resolve) => (nextTask = resolve))
    }
    const scripts = [
      '/assets/a.js',
      'https://elsewhere/b.js',
      '//elsewhere/b.js',
      3,
      '/assets/c.js',
    ]
    for (const n of [1, 2, 3, 4]) scripts.push(`/assets/d${n}.js`)
    let done = false
    const preloading = preloadListed(scripts, doc, () => now, pause).then(() => (done = true))
    // 1.5 ms each: three fit in a slice of PRELOAD_SLICE_MS (4 ms), the next waits for a task.
    expect(PRELOAD_SLICE_MS).toBe(4)
    const firstSlice = [
      'modulepreload /assets/a.js ',
      'modulepreload /assets/c.js ',
      'modulepreload /assets/d1.js ',
      'pause',
    ]
    await Promise.resolve()
    expect(events).toEqual(firstSlice)
    expect(done).toBe(false)
    nextTask()
    await preloading
    expect(events).toEqual([
      ...firstSlice,
      'modulepreload /assets/d2.js ',
      'modulepreload /assets/d3.js ',
      'modulepreload /assets/d4.js ',
    ])
    await preloadListed(undefined, doc, () => now, pause)
    expect(events).toHaveLength(7)
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
