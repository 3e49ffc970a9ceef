import { unstableSetRender } from 'antd-mobile'
import { createRoot, type Root } from 'react-dom/client'

const roots = new WeakMap<Element | DocumentFragment, Root>()

/**
 * antd-mobile 5 renders Toast, Dialog and Modal imperatively with the legacy ReactDOM.render,
 * which React 19 removed; hand it createRoot instead (https://mobile.ant.design/guide/v5-for-19).
 */
export function setAntdMobileRender(): void {
  // The documented way for antd-mobile 5 on React 19; deprecated only in favour of its next major.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  unstableSetRender((node, container) => {
    let root = roots.get(container)
    if (!root) {
      root = createRoot(container)
      roots.set(container, root)
    }
    root.render(node)
    const mounted = root
    return async () => {
      // Unmounting inside the render pass that requested it warns in React 19; wait a tick.
      await new Promise((resolve) => setTimeout(resolve, 0))
      mounted.unmount()
      roots.delete(container)
    }
  })
}
