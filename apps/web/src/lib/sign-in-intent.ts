import { useEffect, useEffectEvent, useRef } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { inBackground } from './background'

/**
 * A tap that needed a user and survives the sign-in it started (关注 on an item page): the
 * wanted URL carries `after=<intent>`, the page performs it once signed in and removes it. The URL
 * is the carrier because the messaging OAuth leaves the site and the native app's login reloads the
 * page; sessionStorage would not follow the former reliably.
 */
export type SignInIntent = 'watch'

const PARAM = 'after'
const INTENTS: readonly SignInIntent[] = ['watch']

/** `wanted` (pathname + search + hash) with the intent to perform once back, signed in. */
export function withSignInIntent(wanted: string, intent: SignInIntent): string {
  const url = new URL(wanted, 'http://x')
  url.searchParams.set(PARAM, intent)
  return url.pathname + url.search + url.hash
}

/** The intent a search string carries, if it is one this app knows. */
export function readSignInIntent(search: string): SignInIntent | undefined {
  const value = new URLSearchParams(search).get(PARAM)
  return INTENTS.find((intent) => intent === value)
}

/** `search` without the intent ('' when nothing else is left), other parameters in their order. */
export function withoutSignInIntent(search: string): string {
  const params = new URLSearchParams(search)
  params.delete(PARAM)
  const rest = params.toString()
  return rest === '' ? '' : `?${rest}`
}

/**
 * Performs `intent` once when the page carries it and `ready` (signed in, the item's state loaded),
 * then drops the parameter with `replace`, so neither a reload nor back repeats it. `perform` is
 * not called when `ready` never comes (signed out still): the parameter then waits.
 */
export function useSignInIntent(intent: SignInIntent, ready: boolean, perform: () => void): void {
  const location = useLocation()
  const navigate = useNavigate()
  const done = useRef(false)
  const carried = readSignInIntent(location.search) === intent
  const run = useEffectEvent(perform)

  useEffect(() => {
    if (!carried || !ready || done.current) return
    done.current = true
    inBackground(
      navigate(
        {
          pathname: location.pathname,
          search: withoutSignInIntent(location.search),
          hash: location.hash,
        },
        { replace: true, state: location.state as unknown },
      ),
    )
    run()
  }, [carried, ready, navigate, location])
}
