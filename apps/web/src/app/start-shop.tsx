import '../lib/zod-jitless'
import { inBackground } from '../lib/background'
import { readSession } from '../lib/cookies'
import { mount } from './mount'
import { loadPage } from './router'
import { ShopApp } from './shop-app'

/**
 * Start-up and the shop's first render (main.tsx loads this module when it is time). The page's
 * own chunk loads alongside start-up, and is evaluated in a task of its own: the first render
 * then finds it ready instead of evaluating it inside the render (ADR 026 §9).
 */
export function startShop(): void {
  inBackground(mount(<ShopApp />, loadPage(window.location.pathname, readSession() !== null)))
}
