import { mount } from './app/mount'
import { ShopApp } from './app/shop-app'

void mount(<ShopApp />)
