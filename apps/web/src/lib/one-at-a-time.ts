/**
 * Runs `task` unless the one started through the same flag is still running, and says whether it
 * ran. The flag is a ref, not state: two taps within one frame both see a button enabled, and a
 * mutation's isPending only changes with the next render.
 */
export async function oneAtATime(
  running: { current: boolean },
  task: () => Promise<void>,
): Promise<boolean> {
  if (running.current) return false
  running.current = true
  try {
    await task()
    return true
  } finally {
    running.current = false
  }
}
