import { useState } from 'react'

/** A chat composer's text: sent trimmed, never blank, and cleared once handed over. */
export function useComposerText(onText: (text: string) => void) {
  const [text, setText] = useState('')
  const trimmed = text.trim()
  return {
    text,
    setText,
    empty: trimmed === '',
    submit: () => {
      if (trimmed === '') return
      setText('')
      onText(trimmed)
    },
  }
}
