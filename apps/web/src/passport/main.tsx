import { mount } from '../app/mount'
import { PassportApp } from '../app/passport-app'

void mount(<PassportApp />)
