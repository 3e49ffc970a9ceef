import '../lib/zod-jitless'
import { inBackground } from '../lib/background'
import { nextTask } from '../lib/first-screen-paint'
import { mount } from './mount'
import { loadPage } from './router'
import { ShopApp } from './shop-app'

/**
 * Start-up and the shop's first render (main.tsx loads this module when it is time). The page's
 * own chunk is loaded and evaluated first, in a task of its own: the first render then finds it
 * ready instead of evaluating it inside the render.
 */
export function startShop(): void {
  inBackground(
    loadPage(window.location.pathname)
      .catch(() => undefined) // the route's own error element says it, as on any later visit
      .then(nextTask)
      .then(() => mount(<ShopApp />)),
  )
}
