/** Spec §9: the root font size follows the viewport width, capped at a 375 px wide layout. */
export const DESIGN_WIDTH = 375
export const BASE_FONT_SIZE = 16

export function rootFontSize(viewportWidth: number): number {
  const width = Math.min(Math.max(viewportWidth, 0) || DESIGN_WIDTH, DESIGN_WIDTH)
  return Math.round((width / DESIGN_WIDTH) * BASE_FONT_SIZE * 100) / 100
}

export function applyRootFontSize(): void {
  const update = (): void => {
    const width = document.documentElement.clientWidth || window.innerWidth
    document.documentElement.style.fontSize = `${rootFontSize(width)}px`
  }
  update()
  window.addEventListener('resize', update)
  window.addEventListener('orientationchange', update)
}
