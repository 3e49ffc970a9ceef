import { loadClientConfig } from './config'
import { ensureDeviceId } from './cookies'
import { initI18n } from './i18n'
import { currentInAppEnvironment } from './in-app/environment'
import { applyRootFontSize } from './root-font-size'

/**
 * What both apps (shop and passport) need before their first render. Resolves to false when the
 * client configuration could not be had (the caller shows a retry screen instead of the app).
 */
export async function startUp(): Promise<boolean> {
  ensureDeviceId()
  applyRootFontSize()
  const [config] = await Promise.allSettled([loadClientConfig(), initI18n(), startNativeSession()])
  return config.status === 'fulfilled'
}

/**
 * Inside the native app the login cookies come from the app (spec §2); elsewhere nothing. The
 * bridge client and its schemas load only there: every other first load stays without them.
 */
async function startNativeSession(): Promise<void> {
  if (currentInAppEnvironment() !== 'native') return
  const [{ nativeBridge }, { reloadOnLoginStatus, syncNativeSession }] = await Promise.all([
    import('./in-app/native-bridge'),
    import('./in-app/native-session'),
  ])
  const bridge = nativeBridge()
  if (!bridge) return
  reloadOnLoginStatus(bridge)
  await syncNativeSession(bridge)
}
