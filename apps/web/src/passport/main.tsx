import '../lib/zod-jitless'
import { mount } from '../app/mount'
import { PassportApp } from '../app/passport-app'
import { inBackground } from '../lib/background'

inBackground(mount(<PassportApp />))
