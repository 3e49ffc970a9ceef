/**
 * Copies text for pasting into a banking app. The Clipboard API needs a secure context and, in
 * some in-app browsers, a permission it never asks for; the fallback selects a hidden text area
 * and copies it the old way, which those browsers still allow inside a tap.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    // Refused or unavailable: try the selection below.
  }
  return copyBySelection(text)
}

function copyBySelection(text: string): boolean {
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  // Off screen but in the document, and not zoomed into on iOS (font size ≥ 16 px).
  area.style.cssText = 'position:fixed;top:0;left:-9999px;opacity:0;font-size:16px'
  document.body.appendChild(area)
  try {
    area.select()
    area.setSelectionRange(0, text.length)
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the only copy some in-app browsers allow
    return document.execCommand('copy')
  } catch {
    return false
  } finally {
    area.remove()
  }
}
