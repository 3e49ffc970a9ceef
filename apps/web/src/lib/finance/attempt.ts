import { ApiError } from '../api-client'

/**
 * The `Idempotency-Key` of one money request (a remittance notice, a withdrawal). The server
 * replays the answer stored under a key, so the key lives exactly as long as the attempt: kept
 * while the answer is unknown (a timeout or a dropped connection — sending again is a retry that
 * must not file the request twice), renewed once the server has answered, or when what is sent
 * changes (another body under the same key is refused as a reused key).
 */
export interface Attempt {
  key: string
  body: string
}

/** The attempt to send `body` under: the unanswered one for the same body, or a new one. */
export function nextAttempt(
  unanswered: Attempt | null,
  body: unknown,
  newKey: () => string,
): Attempt {
  const signature = JSON.stringify(body)
  return unanswered?.body === signature ? unanswered : { key: newKey(), body: signature }
}

/**
 * Whether a failed call was answered by the server (any HTTP status), so its key is spent. A call
 * with no answer (status 0: timed out, network down, offline) keeps its key for the retry.
 */
export function answered(error: unknown): boolean {
  return error instanceof ApiError && error.status > 0
}
