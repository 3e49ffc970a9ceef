import '../lib/zod-jitless'
import { inBackground } from '../lib/background'
import { mount } from './mount'
import { ShopApp } from './shop-app'

/** Start-up and the shop's first render (main.tsx loads this module when it is time). */
export function startShop(): void {
  inBackground(mount(<ShopApp />))
}
