/**
 * Whether an error is a page's code chunk that no longer exists (the console was rebuilt or
 * deployed while this tab was open): Chromium, Firefox and Safari word it differently.
 */
export function isStaleBuild(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error)
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  )
}
