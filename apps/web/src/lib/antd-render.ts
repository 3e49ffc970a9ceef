import type { ReactElement } from 'react'
import { createRoot, type Root } from 'react-dom/client'

const roots = new WeakMap<Element | DocumentFragment, Root>()

/**
 * antd-mobile 5 shows Toast, Dialog, Modal and the pickers' prompts by rendering into a node of its
 * own with rc-util's `render()`, which calls the legacy ReactDOM.render that React 19 removed
 * (https://mobile.ant.design/guide/v5-for-19). The web build resolves that module
 * (`rc-util/lib/React/render`, re-exported by antd-mobile's utils/render) to this one: the same two
 * functions, with createRoot (vite.config.ts, ADR 026 §13). The guide's `unstableSetRender` did
 * the same at start-up, but its module imports the legacy renderer and Babel's regenerator runtime
 * with it: 4 KB of every first load that no first render uses.
 */
export function render(node: ReactElement, container: Element | DocumentFragment): void {
  let root = roots.get(container)
  if (!root) {
    root = createRoot(container)
    roots.set(container, root)
  }
  root.render(node)
}

export async function unmount(container: Element | DocumentFragment): Promise<void> {
  // Unmounting inside the render pass that requested it warns in React 19; wait a tick.
  await new Promise((resolve) => setTimeout(resolve, 0))
  roots.get(container)?.unmount()
  roots.delete(container)
}
