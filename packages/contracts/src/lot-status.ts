import { z } from 'zod'

/**
 * A lot's status, in a module of its own: the push socket's messages carry it, and a lot page's
 * first push message then loads their schemas without building the whole catalogue's, which waits
 * for the page's first call of its own (`catalog.ts` re-exports it; issue 13, ADR 026 §14).
 */
export const LotStatusSchema = z.enum(['preview', 'live', 'sold', 'unsold'])
export type LotStatus = z.infer<typeof LotStatusSchema>
