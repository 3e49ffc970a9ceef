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
    const image = new Image()
    image.src = href
    return image.decode()
  },
})

/**
 * When the app's scripts may be fetched. A page whose first screen came rendered by the server is
 * on screen before any script runs: the scripts wait until it has painted, with its main picture
 * (the one preloaded with fetchpriority=high) loaded or {@link PICTURE_WAIT_MS} passed, so that on
 * a slow link they do not take the bandwidth the picture needs. Any other page resolves at once:
 * nothing is on screen until the app renders.
 */
export function afterFirstScreen(deps: Deps = browserDeps()): Promise<void> {
  const { doc, frame, timer } = deps
  if (!doc.getElementById(FIRST_SCREEN_ID)) return Promise.resolve()
  const href = doc
    .querySelector('link[rel="preload"][as="image"][fetchpriority="high"]')
    ?.getAttribute('href')
  const picture = href
    ? Promise.race([
        deps.picture(href).catch(() => undefined),
        new Promise<void>((resolve) => timer(resolve, PICTURE_WAIT_MS)),
      ])
    : Promise.resolve()
  // A frame and a task after it: the first screen (and the picture) has been painted by then.
  const painted = new Promise<void>((resolve) => frame(() => timer(resolve, 0)))
  return Promise.all([picture, painted]).then(() => undefined)
}

/**
 * Takes the server's first screen away: called as the app's first page is committed (PageFrame's
 * layout effect, before the browser paints), so the page replaces it in one frame.
 */
export function releaseFirstScreen(doc: Pick<Document, 'getElementById'> = document): boolean {
  const first = doc.getElementById(FIRST_SCREEN_ID)
  first?.remove()
  return first !== null
}
