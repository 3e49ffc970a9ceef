import { type Kysely, sql } from 'kysely'
import type { MigrationContext } from './index'

/**
 * The small ports of migration 0019 that a bid calls most, as PL/pgSQL loops over the JSON
 * instead of SQL functions over `jsonb_array_elements` (ADR 030, "Where a bid's time goes in
 * PostgreSQL"). A SQL function with a subquery cannot be inlined into its caller, so PostgreSQL
 * planned it again on every call: `numisma_step_at` cost ~0.1 ms a call and the quota check
 * ~0.3 ms a bid, a third of the statement's CPU. PL/pgSQL evaluates these loops as simple
 * expressions, with nothing to plan.
 *
 * Same answers, nulls included (a missing number counts as nothing in a sum and is never equal
 * to a lot id, as in the SQL versions; the one difference is a running sum past 2⁶³, which the
 * SQL versions added up as numeric — amounts are at most 2⁵³): apps/server/test/pg-bid-engine.test.ts
 * compares them with packages/domain on generated inputs, as it did the versions they replace.
 * The signatures are unchanged, so a release before this migration runs on it. No-op on SQLite.
 */
export function postgresBidFunctionLoops({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return
      for (const statement of FUNCTIONS) await sql.raw(statement).execute(db)
    },
  }
}

const FUNCTIONS = [
  // increments.ts stepAt: the step of the last row (in table order) whose `from` ≤ amount, else
  // the first row's step.
  `create or replace function numisma_step_at(amount bigint, steps jsonb) returns bigint
   language plpgsql immutable parallel safe as $$
   declare
     result bigint;
   begin
     for i in 0 .. coalesce(jsonb_array_length(steps), 0) - 1 loop
       if amount >= (steps->i->>'from')::bigint then
         result := (steps->i->>'step')::bigint;
       end if;
     end loop;
     return coalesce(result, (steps->0->>'step')::bigint);
   end $$`,

  // quota.ts exposure: each lot's larger of leadingAt and proxyMax, plus unpaid orders.
  `create or replace function numisma_quota_exposure(input jsonb) returns bigint
   language plpgsql immutable parallel safe as $$
   declare
     lots jsonb := input->'lots';
     total bigint := 0;
   begin
     for i in 0 .. coalesce(jsonb_array_length(lots), 0) - 1 loop
       total := total + coalesce(greatest((lots->i->>'leadingAt')::bigint,
                                          (lots->i->>'proxyMax')::bigint), 0);
     end loop;
     return total + (input->>'unpaidOrders')::bigint;
   end $$`,

  // quota.ts withinQuota: the lot's exposure (its first entry) is replaced by the commitment when
  // larger; every entry of the lot is left out of the others.
  `create or replace function numisma_within_quota(input jsonb, lot_id bigint, commitment bigint)
   returns boolean
   language plpgsql immutable parallel safe as $$
   declare
     lots jsonb := input->'lots';
     entry_lot bigint;
     others bigint := 0;
     own bigint;
     own_seen boolean := false;
   begin
     for i in 0 .. coalesce(jsonb_array_length(lots), 0) - 1 loop
       entry_lot := (lots->i->>'lotId')::bigint;
       if entry_lot <> lot_id then
         others := others + coalesce(greatest((lots->i->>'leadingAt')::bigint,
                                              (lots->i->>'proxyMax')::bigint), 0);
       elsif entry_lot = lot_id and not own_seen then
         own := greatest((lots->i->>'leadingAt')::bigint, (lots->i->>'proxyMax')::bigint);
         own_seen := true;
       end if;
     end loop;
     return others + (input->>'unpaidOrders')::bigint + greatest(commitment, coalesce(own, 0))
            <= (input->>'deposit')::bigint * coalesce((input->>'multiplier')::bigint, 10);
   end $$`,

  // bid-engine.ts withProxy: the bidder's entry moves to the end with its new values.
  `create or replace function numisma_with_proxy(proxies jsonb, next jsonb) returns jsonb
   language plpgsql immutable parallel safe as $$
   declare
     result jsonb := '[]'::jsonb;
   begin
     for i in 0 .. coalesce(jsonb_array_length(proxies), 0) - 1 loop
       if (proxies->i->>'userId')::bigint <> (next->>'userId')::bigint then
         result := result || jsonb_build_array(proxies->i);
       end if;
     end loop;
     return result || jsonb_build_array(next);
   end $$`,
]
