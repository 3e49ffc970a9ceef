import type { RefObject } from 'react'

/**
 * The hidden file input behind a chat composer's picture button (the button clicks it): one
 * picture at a time, cleared after each pick so the same picture can be picked again.
 */
export function ChatPictureInput({
  inputRef,
  testId,
  onPicture,
}: {
  inputRef: RefObject<HTMLInputElement | null>
  testId: string
  onPicture: (file: File) => void
}) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept="image/*"
      hidden
      data-testid={testId}
      onChange={(event) => {
        const file = event.target.files?.[0]
        event.target.value = ''
        if (file) onPicture(file)
      }}
    />
  )
}
