import { laterModule } from '../lib/later-module'

/** The swiper and pull to refresh (./gestures), loaded once a component asking for them mounted. */
export const useGestures = laterModule(() => import('./gestures'))
