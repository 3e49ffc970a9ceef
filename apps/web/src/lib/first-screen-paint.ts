/**
 * The element the server puts a landing page's server-rendered first screen in (ADR 026 §9),
 * before #root: it covers the viewport until the app's own page is on screen beneath it.
 */
export const FIRST_SCREEN_ID = 'first-screen'

/** The longest the app waits for the main picture before it loads anyway. */
export const PICTURE_WAIT_MS = 2_000

/** If no page has taken over by then, the first screen goes anyway (and it is reported). */
export const RELEASE_AFTER_MS = 15_000

interface Deps {
  doc: Pick<Document, 'getElementById' | 'querySelector'>
  frame: (callback: () => void) => void
  timer: (callback: () => void, ms: number) => void
  /** Resolves once the picture at this address is loaded and decoded (or failed). */
  picture: (href: string) => Promise<unknown>
}

const browserDeps = (): Deps => ({
  doc: document,
  frame: (callback) => requestAnimationFrame(callback),
  timer: (callback, ms) => setTimeout(callback, ms),
  picture: (href) => {
    // The first screen's own <img> of it: decoding="async" paints it on its own schedule, which
    // a separate Image() of the same address does not follow.
    const shown = [...document.querySelectorAll(`#${FIRST_SCREEN_ID} img`)].find(
      (img): img is HTMLImageElement =>
        img instanceof HTMLImageElement && img.getAttribute('src') === href,
    )
    const image = shown ?? new Image()
    if (!shown) image.src = href
    return image.decode()
  },
})

/**
 * When the app's scripts may be fetched. A page whose first screen came rendered by the server is
 * on screen before any script runs: the scripts wait until its main picture (the one preloaded
 * with fetchpriority=high) has loaded, or {@link PICTURE_WAIT_MS} has passed, and frames have been
 * painted after that, so that on a slow link they do not take the bandwidth the picture needs. Any other page resolves at once:
 * nothing is on screen until the app renders.
 */
export function afterFirstScreen(deps: Deps = browserDeps()): Promise<void> {
  const { doc, frame, timer } = deps
  const first = doc.getElementById(FIRST_SCREEN_ID)
  if (!first) return Promise.resolve()
  const body = first.querySelector<HTMLElement>(PAGE_BODY)
  body?.addEventListener('scroll', () => (firstScreenScroll = body.scrollTop), { passive: true })
  const href = doc
    .querySelector('link[rel="preload"][as="image"][fetchpriority="high"]')
    ?.getAttribute('href')
  const picture = href
    ? Promise.race([
        deps.picture(href).catch(() => undefined),
        new Promise<void>((resolve) => timer(resolve, PICTURE_WAIT_MS)),
      ])
    : Promise.resolve()
  // Then two frames and a task after them: the first screen, the picture in it, has been painted
  // (a picture decoded during one frame is painted in the next).
  return picture.then(
    () =>
      new Promise<void>((resolve) =>
        frame(() =>
          frame(() =>
            timer(() => {
              // Scrolled before the listener was there: read while the layout is still clean.
              firstScreenScroll = body?.scrollTop ?? 0
              resolve()
            }, 0),
          ),
        ),
      ),
  )
}

/** The scrolling body of a page, the first screen's as the app's (PageFrame). */
const PAGE_BODY = '[data-testid=page-body]'

/**
 * How far the reader has scrolled the first screen's page, followed as they scroll: read in
 * {@link releaseFirstScreen}, `scrollTop` would lay out the app's whole page, just inserted, inside
 * the commit that shows it — one long task on a slow phone (issue 13).
 */
let firstScreenScroll = 0

/** How far the reader has scrolled the first screen's page; 0 when there is none (any more). */
export function firstScreenScrolled(doc: Pick<Document, 'getElementById'> = document): number {
  return doc.getElementById(FIRST_SCREEN_ID) ? firstScreenScroll : 0
}

/**
 * Takes the server's first screen away: called as the app's first page is committed (PageFrame's
 * layout effect, before the browser paints), so the page replaces it in one frame. Returns how far
 * the reader had scrolled its page body, for the app's page to take over (undefined when there was
 * no first screen); what they had typed into a field goes into the app's field, focus and all.
 */
export function releaseFirstScreen(
  doc: Pick<Document, 'getElementById'> = document,
): number | undefined {
  const first = doc.getElementById(FIRST_SCREEN_ID)
  if (!first) return undefined
  const typed = typedInto(first)
  first.remove()
  // The app's page is attached to the document by the end of this commit, before the next frame.
  if (typed) requestAnimationFrame(() => typeInto(typed))
  return firstScreenScroll
}

interface Typed {
  /** The app's copy of the field: the same tag under the same `data-testid`. */
  selector: string
  value: string
  focused: boolean
}

/** What the reader typed into a field of the first screen (the home search), if anything. */
function typedInto(first: HTMLElement): Typed | undefined {
  const active = first.ownerDocument.activeElement
  for (const field of first.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
    'input, textarea',
  )) {
    if (field.value === field.defaultValue && field !== active) continue
    const testId = field.closest('[data-testid]')?.getAttribute('data-testid')
    if (!testId) continue
    const selector = `#root [data-testid="${CSS.escape(testId)}"] ${field.tagName.toLowerCase()}`
    return { selector, value: field.value, focused: field === active }
  }
  return undefined
}

/**
 * Puts the text into the app's copy of the field as typing would (the native value setter and an
 * `input` event, which React's onChange reads), and the focus with it.
 */
function typeInto(typed: Typed): void {
  const field = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(typed.selector)
  if (!field) return
  if (field.value !== typed.value) {
    // React's own value tracker would swallow a plain assignment: the prototype's setter does not.
    Reflect.set(Object.getPrototypeOf(field) as object, 'value', typed.value, field)
    field.dispatchEvent(new Event('input', { bubbles: true }))
  }
  if (typed.focused) field.focus()
}

function origin(doc: Document): string {
  return new URL(doc.baseURI).origin
}

/**
 * How long one task may spend asking for preloads. Starting a request is main-thread work in the
 * browser — about half a millisecond each on this machine, three under Lighthouse's tracing — so
 * the 19 scripts of an item page, asked for in one task, were a task of 50–65 ms there, four times
 * that on the phone it models (issue 13: total blocking time).
 */
export const PRELOAD_SLICE_MS = 4

/**
 * Preloads the scripts the server listed for after the first screen (the app's and its route's
 * chunks), which the page did not name so as not to compete with its first paint: in the order
 * listed (the framework's among the first), in tasks of at most about {@link PRELOAD_SLICE_MS}.
 * Resolves once every one has been asked for.
 */
export async function preloadListed(
  scripts: unknown,
  doc: Document = document,
  clock: () => number = () => performance.now(),
  pause: () => Promise<void> = nextTask,
): Promise<void> {
  if (!Array.isArray(scripts)) return
  let sliceStart = clock()
  for (const href of scripts) {
    // Only this site's own scripts: no `//host/…` nor any other origin.
    if (typeof href !== 'string' || new URL(href, doc.baseURI).origin !== origin(doc)) continue
    if (clock() - sliceStart >= PRELOAD_SLICE_MS) {
      await pause()
      sliceStart = clock()
    }
    const link = doc.createElement('link')
    link.rel = 'modulepreload'
    link.crossOrigin = ''
    link.href = href
    doc.head.append(link)
  }
}

const RELOADED = 'numisma-app-reloaded'

/**
 * The app's scripts could not be loaded (a lost connection, or a release between the page and its
 * scripts): the page is loaded again, once until the app has started (see {@link appStarted}), so
 * never in a loop; offline, once the connection is back. Returns true when a reload is under way.
 */
export function reloadOnce(
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined,
  reload: () => void,
  online: { onLine: boolean; whenOnline: (retry: () => void) => void } = {
    onLine: true,
    whenOnline: () => undefined,
  },
): boolean {
  try {
    if (!storage || storage.getItem(RELOADED)) return false
  } catch {
    return false // storage refused (private mode): no way to know it was tried, so no reload
  }
  if (!online.onLine) {
    // A reload now would put the browser's offline page over a readable first screen.
    online.whenOnline(() => reloadOnce(storage, reload))
    return false
  }
  try {
    storage.setItem(RELOADED, '1')
  } catch {
    return false
  }
  reload()
  return true
}

/** {@link reloadOnce} in the browser. */
export function reloadApp(): boolean {
  return reloadOnce(sessionStorage(), () => window.location.reload(), {
    onLine: navigator.onLine,
    whenOnline: (retry) => window.addEventListener('online', retry, { once: true }),
  })
}

/** The app has rendered: a later failure to load may reload the page once again. */
export function appStarted(): void {
  try {
    sessionStorage()?.removeItem(RELOADED)
  } catch {
    // nothing was stored either
  }
}

function sessionStorage(): Storage | undefined {
  try {
    return window.sessionStorage
  } catch {
    return undefined
  }
}

/** Lets the browser run what is waiting (a tap, a frame) before the next piece of start-up. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
