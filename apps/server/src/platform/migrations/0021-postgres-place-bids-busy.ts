import { type Kysely, sql } from 'kysely'
import type { MigrationContext } from './index'

/**
 * `numisma_place_bids` answers `busy` for every bid of a batch whose lot it could not lock, and
 * places none of them. Migration 0019's version went on, bid by bid, into `numisma_place_bid`,
 * whose own `skip locked` could then find the lot free — its holder had committed in between — and
 * place the rest of the batch in that statement. The service, seeing `busy` among the answers,
 * placed the whole batch again under the lock: a bid already placed was judged a second time, and
 * its bidder was answered with that second judgement (a CI run of the two-instance suite: a bid
 * recorded as the lot's 51st, answered BID_TOO_LOW). A batch is now placed whole or not at all.
 * Same signature; no-op on SQLite.
 */
export function postgresPlaceBidsBusy({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return
      await sql.raw(PLACE_BIDS).execute(db)
    },
  }
}

// As 0019 (lock order: the lot, then the batch's deposit accounts in user id order), but a lot
// held elsewhere answers busy for every bid at once. (A batch for a lot that does not exist now
// locks its bidders' accounts too before each bid answers NOT_FOUND: the same order, harmless.)
const PLACE_BIDS = `create or replace function numisma_place_bids(
     p_bids jsonb, p_now bigint, p_multiplier bigint, p_ttl_ms bigint) returns jsonb
   language plpgsql volatile as $$
   declare
     v_bid jsonb;
     v_results jsonb := '[]'::jsonb;
     v_locked bigint;
   begin
     select id into v_locked from lots where id = (p_bids->0->>'lotId')::bigint
       for update skip locked;
     if not found and exists (select 1 from lots where id = (p_bids->0->>'lotId')::bigint) then
       select coalesce(jsonb_agg('{"busy": true}'::jsonb), '[]'::jsonb) into v_results
         from jsonb_array_elements(p_bids);
       return v_results;
     end if;
     perform 1 from ledger_accounts
      where kind = 'deposit'
        and user_id in (select (b->>'userId')::bigint from jsonb_array_elements(p_bids) b)
      order by user_id
      for update;
     for v_bid in select b from jsonb_array_elements(p_bids) with ordinality t(b, i) order by i loop
       v_results := v_results || jsonb_build_array(numisma_place_bid(
         (v_bid->>'lotId')::bigint, (v_bid->>'userId')::bigint, (v_bid->>'amount')::bigint,
         (v_bid->>'proxy')::boolean, p_now, v_bid->>'key', v_bid->>'hash', p_multiplier,
         p_ttl_ms));
     end loop;
     return v_results;
   end $$`
