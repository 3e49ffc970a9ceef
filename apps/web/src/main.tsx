import './lib/zod-jitless'
import { mount } from './app/mount'
import { ShopApp } from './app/shop-app'
import { inBackground } from './lib/background'

inBackground(mount(<ShopApp />))
