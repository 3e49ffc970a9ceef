import { useLayoutEffect, useRef } from 'react'
import { Stepper, type StepperProps, type StepperRef } from 'antd-mobile'

const RANGE_ATTRIBUTES = ['aria-valuenow', 'aria-valuemax', 'aria-valuemin'] as const

/**
 * antd-mobile's Stepper with a name for its number field. The Stepper gives its inner <input
 * role="spinbutton"> no label, and its Input copies the spinbutton's aria-value* onto the plain
 * <div> around the input as well, where ARIA does not allow them (Lighthouse's `label` and
 * `aria-allowed-attr`). Neither can be passed in, so both are mended on the DOM after each render
 * (React sets the aria-value* again whenever the value changes).
 */
export function LabelledStepper({ label, ...props }: StepperProps & { label: string }) {
  const stepper = useRef<StepperRef>(null)

  useLayoutEffect(() => {
    const input = stepper.current?.nativeElement
    if (!input) return
    input.setAttribute('aria-label', label)
    const wrapper = input.parentElement
    if (wrapper && wrapper.getAttribute('role') === null) {
      for (const name of RANGE_ATTRIBUTES) wrapper.removeAttribute(name)
    }
  })

  return <Stepper ref={stepper} {...props} />
}
