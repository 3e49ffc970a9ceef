/**
 * Thrown by a replay-only attempt whose `Idempotency-Key` turned out not to be committed (it lapsed
 * between the look and the claim): the transaction rolls back with nothing written.
 */
export class ReplayMissed extends Error {}

/**
 * A password-guarded write under an `Idempotency-Key` (paying from the balance, a withdrawal, a
 * delivery fee): a retry whose key has committed replays the first answer without asking the
 * password again — the payer was told it went through, and wrong tries since (or a lock) must not
 * hide that answer. Otherwise the password is checked before the transaction (argon2 is slow, and a
 * wrong try counts even though we refuse) and the write runs.
 *
 * `run(replayOnly)` claims the key after its locks; when `replayOnly` and the claim is new it must
 * throw `new ReplayMissed()` before writing anything.
 */
export async function replayOrVerify<T>(steps: {
  committed: () => Promise<boolean>
  verify: () => Promise<void>
  run: (replayOnly: boolean) => Promise<T>
}): Promise<T> {
  if (await steps.committed()) {
    try {
      return await steps.run(true)
    } catch (error) {
      if (!(error instanceof ReplayMissed)) throw error
    }
  }
  await steps.verify()
  return steps.run(false)
}
