import { vi } from 'vitest'
import type * as ApiClientModule from '../lib/api-client'
import type { Page, RequestOptions } from '../lib/api-client'
import { loadSchema } from '../lib/lazy-schema'

/**
 * A fake of lib/api-client for the API files' tests. It parses the reply with the schema each file
 * hands it (a lazy one loaded), as the real client does, so what a file accepts and refuses is its contract schema's.
 *
 * In a test file:
 *   vi.mock('../api-client', async (importOriginal) =>
 *     (await import('../../test/fake-api-client')).fakeApiClient(await importOriginal()),
 *   )
 *   beforeEach(resetFakeServer)
 */
export interface FakeServer {
  calls: RequestOptions<unknown>[]
  /** The body's `data`, or a paged body, or (for requestPage) a function of the query making one. */
  reply: unknown
  failure: Error | undefined
}

export const fakeServer: FakeServer = { calls: [], reply: undefined, failure: undefined }

export function resetFakeServer(): void {
  fakeServer.calls = []
  fakeServer.reply = undefined
  fakeServer.failure = undefined
}

export const lastCall = (): RequestOptions<unknown> => {
  const call = fakeServer.calls.at(-1)
  if (call === undefined) throw new Error('no request was made')
  return call
}

/** The module a `vi.mock` factory returns: the real client with `request`/`requestPage` faked. */
export function fakeApiClient(real: typeof ApiClientModule): typeof ApiClientModule {
  const answer = (options: RequestOptions<unknown>) => {
    fakeServer.calls.push(options)
    if (fakeServer.failure !== undefined) throw fakeServer.failure
  }
  return {
    ...real,
    request: vi.fn(async (options: RequestOptions<unknown>) => {
      answer(options)
      const body = fakeServer.reply
      return options.schema ? (await loadSchema(options.schema)).parse(body) : body
    }) as typeof real.request,
    requestPage: vi.fn(async (options: RequestOptions<unknown>) => {
      answer(options)
      const reply = fakeServer.reply as Page<unknown> | ((query: unknown) => Page<unknown>)
      const body = typeof reply === 'function' ? reply(options.query) : reply
      return options.schema ? (await loadSchema(options.schema)).parse(body) : body
    }) as typeof real.requestPage,
  }
}
