import { Toast } from 'antd-mobile'

/** Spec §8/§9: failure toasts are text, 2.5 s, centred, 7.6em wide (the width is in global CSS). */
export const TOAST_DURATION_MS = 2500
export const TOAST_CLASS = 'app-toast'

export function showToast(text: string): void {
  Toast.show({
    content: text,
    duration: TOAST_DURATION_MS,
    position: 'center',
    maskClassName: TOAST_CLASS,
  })
}

/** The shared success toast of spec §9: 2000 ms by default. */
export function showSuccess(text: string, duration = 2000): void {
  Toast.show({ content: text, icon: 'success', duration, maskClassName: TOAST_CLASS })
}
