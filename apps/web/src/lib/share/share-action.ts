import type { InAppEnvironment } from '../in-app/environment'

/**
 * What the share button does where the page runs (spec §2, §7 "Share"; issue 11 item 4):
 * - `native`: the app's own share sheet through the bridge;
 * - `menu-hint`: the messaging app lets no page open its share sheet, so the page points at the
 *   top-right menu, whose share already carries the page's info (JS-SDK);
 * - `system-sheet`: the browser's Web Share sheet;
 * - `copy`: copy the link (the microblog app, and browsers without Web Share).
 */
export type ShareAction = 'native' | 'menu-hint' | 'system-sheet' | 'copy'

export function shareActionFor(environment: InAppEnvironment, canWebShare: boolean): ShareAction {
  switch (environment) {
    case 'native':
      return 'native'
    case 'messaging':
      return 'menu-hint'
    case 'microblog':
      // Its browser has no dependable Web Share; copying works in all its versions.
      return 'copy'
    case 'browser':
      return canWebShare ? 'system-sheet' : 'copy'
  }
}

export interface CopyDeps {
  clipboard: Pick<Clipboard, 'writeText'> | undefined
  /** The pre-Clipboard-API way: select a text field's content and `execCommand('copy')`. */
  copyBySelection(text: string): boolean
}

/**
 * Copies text, falling back to a selected text field where the Clipboard API is missing (plain
 * http, older in-app browsers) or refuses (no permission). True when one of them succeeded.
 */
export async function copyText(text: string, deps: CopyDeps): Promise<boolean> {
  if (deps.clipboard) {
    try {
      await deps.clipboard.writeText(text)
      return true
    } catch {
      // Refused: the selection way below may still be allowed.
    }
  }
  return deps.copyBySelection(text)
}

export function copyBySelection(text: string): boolean {
  const field = document.createElement('textarea')
  field.value = text
  field.setAttribute('readonly', '')
  // Off screen but selectable; iOS will not select a field that is display:none.
  field.style.position = 'fixed'
  field.style.top = '-1000px'
  document.body.append(field)
  field.select()
  field.setSelectionRange(0, text.length)
  try {
    // Deprecated, and still the only way where the Clipboard API is missing.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    return document.execCommand('copy')
  } catch {
    return false
  } finally {
    field.remove()
  }
}

export const browserCopyDeps = (): CopyDeps => ({
  clipboard: typeof navigator.clipboard?.writeText === 'function' ? navigator.clipboard : undefined,
  copyBySelection,
})
