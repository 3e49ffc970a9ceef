import { type Kysely, sql } from 'kysely'
import type { MigrationContext } from './index'

/**
 * A bid on PostgreSQL in one statement (issue 14, ADR 030): `numisma_place_bid` does what the bid
 * transaction of BiddingService does in TypeScript — lock, idempotency, the refusals, the engine,
 * the quota, soft close, the writes, the outbid notice — so the lot's row lock is held for one
 * statement instead of about eight round trips. SQLite keeps the TypeScript path (no round trips
 * there), so this is a no-op on it.
 *
 * The rules are ported from packages/domain, which stays their source of truth: each port is a
 * pure function (`numisma_decide_bid` = bid-engine.ts placeBid, `numisma_within_quota` =
 * quota.ts withinQuota, `numisma_end_after_bid` = soft-close.ts endAfterBid, and increments.ts'
 * stepAt/isOnGrid/nearestOnGrid/nextAmount) over the same JSON shapes as the TypeScript, and
 * apps/server/test/pg-bid-engine.test.ts compares them with the domain on generated inputs. A rule
 * changed in the domain must be changed here in a new migration (`create or replace`), or that
 * test fails.
 */
export function postgresBidFunction({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return
      for (const statement of FUNCTIONS) await sql.raw(statement).execute(db)
    },
  }
}

const FUNCTIONS = [
  // increments.ts stepAt: the step of the last row (in table order) whose `from` ≤ amount.
  `create or replace function numisma_step_at(amount bigint, steps jsonb) returns bigint
   language sql immutable parallel safe as $$
     select coalesce(
       (select (s->>'step')::bigint from jsonb_array_elements(steps) with ordinality t(s, i)
         where amount >= (s->>'from')::bigint order by i desc limit 1),
       (steps->0->>'step')::bigint)
   $$`,

  // increments.ts isOnGrid: a positive safe integer that is a multiple of step(amount).
  `create or replace function numisma_on_grid(amount bigint, steps jsonb) returns boolean
   language sql immutable parallel safe as $$
     select amount > 0 and amount <= 9007199254740991 and amount % numisma_step_at(amount, steps) = 0
   $$`,

  // increments.ts nextAmount.
  `create or replace function numisma_next_amount(amount bigint, steps jsonb) returns bigint
   language sql immutable parallel safe as $$
     select amount + numisma_step_at(amount, steps)
   $$`,

  // increments.ts nearestOnGrid, as BID_OFF_GRID's details {below, above}.
  `create or replace function numisma_nearest_on_grid(amount bigint, steps jsonb) returns jsonb
   language plpgsql immutable parallel safe as $$
   declare
     step bigint := numisma_step_at(amount, steps);
     below bigint := ceil(amount::numeric / step)::bigint * step - step;
     above bigint := greatest(floor(amount::numeric / step)::bigint * step + step,
                              numisma_step_at(0, steps));
   begin
     return jsonb_build_object('below', case when below > 0 then below end, 'above', above);
   end $$`,

  // soft-close.ts endAfterBid.
  `create or replace function numisma_end_after_bid(
     ends_at bigint, bid_at bigint, window_seconds bigint, extend_seconds bigint) returns bigint
   language sql immutable parallel safe as $$
     select case when bid_at >= ends_at or ends_at - bid_at > window_seconds * 1000 then ends_at
                 else greatest(ends_at, bid_at + extend_seconds * 1000) end
   $$`,

  // quota.ts exposure: each lot's larger of leadingAt and proxyMax, plus unpaid orders.
  `create or replace function numisma_quota_exposure(input jsonb) returns bigint
   language sql immutable parallel safe as $$
     select coalesce(sum(greatest((e->>'leadingAt')::bigint, (e->>'proxyMax')::bigint)), 0)::bigint
            + (input->>'unpaidOrders')::bigint
       from jsonb_array_elements(input->'lots') e
   $$`,

  // quota.ts withinQuota: the lot's exposure (its first entry) is replaced by the commitment when
  // larger; every entry of the lot is left out of the others.
  `create or replace function numisma_within_quota(input jsonb, lot_id bigint, commitment bigint)
   returns boolean
   language sql immutable parallel safe as $$
     select numisma_quota_exposure(jsonb_build_object(
              'lots', coalesce((select jsonb_agg(e) from jsonb_array_elements(input->'lots') e
                                 where (e->>'lotId')::bigint <> lot_id), '[]'::jsonb),
              'unpaidOrders', input->'unpaidOrders'))
            + greatest(commitment, coalesce(
                (select greatest((e->>'leadingAt')::bigint, (e->>'proxyMax')::bigint)
                   from jsonb_array_elements(input->'lots') with ordinality t(e, i)
                  where (e->>'lotId')::bigint = lot_id order by i limit 1), 0))
            <= (input->>'deposit')::bigint * coalesce((input->>'multiplier')::bigint, 10)
   $$`,

  // bid-engine.ts withProxy: the bidder's entry moves to the end with its new values.
  `create or replace function numisma_with_proxy(proxies jsonb, next jsonb) returns jsonb
   language sql immutable parallel safe as $$
     select coalesce((select jsonb_agg(p order by i)
                        from jsonb_array_elements(proxies) with ordinality t(p, i)
                       where (p->>'userId')::bigint <> (next->>'userId')::bigint), '[]'::jsonb)
            || jsonb_build_array(next)
   $$`,

  // bid-engine.ts accepted(): the bidder's proxy, the others' spent proxies, the new state.
  `create or replace function numisma_accepted(
     state jsonb, bid jsonb, price bigint, leader_id bigint, leader_since bigint, changes jsonb,
     outbid bigint) returns jsonb
   language plpgsql immutable parallel safe as $$
   declare
     proxies jsonb := state->'proxies';
     previous bigint;
   begin
     if (bid->>'proxy')::boolean then
       select (p->>'max')::bigint into previous
         from jsonb_array_elements(proxies) with ordinality t(p, i)
        where (p->>'userId')::bigint = (bid->>'userId')::bigint order by i limit 1;
       proxies := numisma_with_proxy(proxies, jsonb_build_object(
         'userId', (bid->>'userId')::bigint,
         'max', greatest((bid->>'amount')::bigint, coalesce(previous, 0)),
         'since', (bid->>'at')::bigint,
         'active', true));
     end if;
     -- Anyone who does not lead now has no live maximum above the price.
     select coalesce(jsonb_agg(case when (p->>'userId')::bigint <> leader_id
                                      and (p->>'active')::boolean and (p->>'max')::bigint <= price
                                    then jsonb_set(p, '{active}', 'false') else p end order by i),
                     '[]'::jsonb)
       into proxies from jsonb_array_elements(proxies) with ordinality t(p, i);
     return jsonb_build_object(
       'ok', true,
       'state', state || jsonb_build_object(
         'price', price, 'leaderId', leader_id, 'leaderSince', leader_since, 'proxies', proxies,
         'bidCount', (state->>'bidCount')::bigint + jsonb_array_length(changes)),
       'changes', changes,
       'outbid', outbid,
       'leading', leader_id = (bid->>'userId')::bigint,
       'notLeading', null);
   end $$`,

  // bid-engine.ts placeBid over its own JSON shapes: state = LotState, bid = Bid, steps =
  // PriceStep[]; returns BidResult.
  `create or replace function numisma_decide_bid(state jsonb, bid jsonb, steps jsonb) returns jsonb
   language plpgsql immutable parallel safe as $$
   declare
     start_price bigint := (state->>'startPrice')::bigint;
     reserve bigint := (state->>'reservePrice')::bigint;
     price bigint := (state->>'price')::bigint;
     leader bigint := (state->>'leaderId')::bigint;
     bidder bigint := (bid->>'userId')::bigint;
     amount bigint := (bid->>'amount')::bigint;
     proxy boolean := (bid->>'proxy')::boolean;
     at bigint := (bid->>'at')::bigint;
     leader_max bigint;
     leader_proxy bigint;
     minimum bigint;
     opening bigint;
     new_price bigint;
     held bigint;
     changes jsonb := '[]'::jsonb;
     result jsonb;
   begin
     if at < (state->>'startsAt')::bigint then
       return '{"ok": false, "code": "LOT_NOT_OPEN"}'::jsonb;
     end if;
     if at >= (state->>'endsAt')::bigint then
       return '{"ok": false, "code": "LOT_CLOSED"}'::jsonb;
     end if;
     if not numisma_on_grid(amount, steps) then
       return jsonb_build_object('ok', false, 'code', 'BID_OFF_GRID')
              || numisma_nearest_on_grid(amount, steps);
     end if;

     -- leaderMax: the leader's active proxy, else the price they hold.
     if leader is not null and price is not null then
       select (p->>'max')::bigint into leader_proxy
         from jsonb_array_elements(state->'proxies') with ordinality t(p, i)
        where (p->>'userId')::bigint = leader and (p->>'active')::boolean order by i limit 1;
       leader_max := case when leader_proxy is null then price else greatest(leader_proxy, price) end;
     end if;

     -- The leader may only raise their own proxy maximum; it never moves the price.
     if leader = bidder then
       if not proxy then return '{"ok": false, "code": "ALREADY_LEADING"}'::jsonb; end if;
       minimum := case when price is null then start_price
                       else numisma_next_amount(greatest(coalesce(leader_max, 0), price), steps) end;
       if amount < minimum then
         return jsonb_build_object('ok', false, 'code', 'BID_TOO_LOW', 'minimum', minimum);
       end if;
       return jsonb_build_object(
         'ok', true,
         'state', state || jsonb_build_object('proxies', numisma_with_proxy(state->'proxies',
           jsonb_build_object('userId', bidder, 'max', amount,
                              'since', (state->>'leaderSince')::bigint, 'active', true))),
         'changes', '[]'::jsonb, 'outbid', null, 'leading', true, 'notLeading', null);
     end if;

     minimum := case when price is null then start_price else numisma_next_amount(price, steps) end;
     if amount < minimum then
       return jsonb_build_object('ok', false, 'code', 'BID_TOO_LOW', 'minimum', minimum);
     end if;

     -- First bid on the lot.
     if leader_max is null or leader is null or price is null then
       opening := case when proxy then start_price else amount end;
       if proxy and reserve is not null and amount >= reserve then
         opening := greatest(opening, reserve);
       end if;
       return numisma_accepted(state, bid, opening, bidder, at,
         jsonb_build_array(jsonb_build_object('userId', bidder, 'amount', opening, 'auto', proxy)),
         null);
     end if;

     if amount > leader_max then
       -- The challenger takes the lead; the old leader's proxy was spent up to leaderMax.
       if leader_max > price then
         changes := jsonb_build_array(
           jsonb_build_object('userId', leader, 'amount', leader_max, 'auto', true));
       end if;
       if proxy then
         new_price := least(amount, numisma_next_amount(leader_max, steps));
         if reserve is not null and amount >= reserve then
           new_price := greatest(new_price, reserve);
         end if;
       else
         new_price := amount;
       end if;
       changes := changes || jsonb_build_array(
         jsonb_build_object('userId', bidder, 'amount', new_price, 'auto', proxy));
       return numisma_accepted(state, bid, new_price, bidder, at, changes, leader);
     end if;

     -- amount <= leaderMax: the leader keeps the lead (ties go to the earlier maximum).
     held := case when amount = leader_max then leader_max
                  else least(leader_max, numisma_next_amount(amount, steps)) end;
     result := numisma_accepted(state, bid, held, leader, (state->>'leaderSince')::bigint,
       jsonb_build_array(
         jsonb_build_object('userId', bidder, 'amount', amount, 'auto', proxy),
         jsonb_build_object('userId', leader, 'amount', held, 'auto', true)),
       null);
     return result || jsonb_build_object('notLeading', jsonb_build_object(
       'rule', case when amount = leader_max then 'tie_earlier' else 'proxy_higher' end,
       'minimum', numisma_next_amount(held, steps)));
   end $$`,

  // What BiddingService.bid does in its transaction, in one statement (ADR 030). Returns one of
  //   {"error": CODE, "details": {...} | null}     nothing written
  //   {"replay": <the first response>}             an Idempotency-Key seen before
  //   {"response": BidResult, "push": {...}}       committed with the statement
  //   {"busy": true}                               the lot is locked: nothing done
  // p_now is the server's clock (injected, faked in tests), read when the caller sent it.
  `create or replace function numisma_place_bid(
     p_lot_id bigint, p_user_id bigint, p_amount bigint, p_proxy boolean, p_now bigint,
     p_key text, p_hash text, p_multiplier bigint, p_ttl_ms bigint) returns jsonb
   language plpgsql volatile as $$
   declare
     v_lot record;
     v_now_ms bigint := p_now;
     v_seen record;
     v_steps jsonb;
     v_before jsonb;
     v_state jsonb;
     v_decision jsonb;
     v_deposit bigint;
     v_quota jsonb;
     v_ends_at bigint;
     v_response jsonb;
     v_notice_id bigint;
     v_leader_display text;
   begin
     -- Lock the lot, without waiting: a bid is judged at p_now, the caller's clock read just
     -- before this statement, so it must not queue here. A lot another transaction holds answers
     -- "busy"; the caller then waits for the lock in a transaction of its own, reads its clock,
     -- and calls again (a lock this transaction holds is not skipped).
     select l.id, l.title, l.status, l.start_price, l.reserve_price, l.price, l.leader_id,
            l.leader_since, l.starts_at, l.ends_at, l.bid_count, s.soft_close_window_seconds,
            s.soft_close_extend_seconds into v_lot
       from lots l join specials s on s.id = l.special_id
      where l.id = p_lot_id for update of l skip locked;
     if not found and exists (select 1 from lots where id = p_lot_id) then
       return '{"busy": true}'::jsonb;
     end if;

     -- Idempotency (platform/idempotency.ts) after the lot lock: a retry that queued behind its
     -- first attempt replays it. The key is written only with an accepted bid (below), so a refusal
     -- leaves nothing to take back.
     if p_key is not null then
       select request_hash, body into v_seen from idempotency_keys
        where user_id = p_user_id and key = p_key and created_at >= v_now_ms - p_ttl_ms;
       if found then
         if v_seen.request_hash <> p_hash then
           return '{"error": "IDEMPOTENCY_KEY_REUSED", "details": null}'::jsonb;
         end if;
         return jsonb_build_object('replay', v_seen.body::jsonb);
       end if;
     end if;

     if v_lot.id is null then
       return jsonb_build_object('error', 'NOT_FOUND', 'details', jsonb_build_object('lotId', p_lot_id));
     end if;
     if v_lot.status <> 'open' then return '{"error": "LOT_CLOSED", "details": null}'::jsonb; end if;
     -- A winner who left a lot unpaid past its due time may not bid until they pay (DESIGN §4).
     if exists (select 1 from orders where user_id = p_user_id and status = 'overdue') then
       return '{"error": "BIDDER_OVERDUE", "details": null}'::jsonb;
     end if;

     select coalesce(jsonb_agg(jsonb_build_object('from', from_amount, 'step', step)
                               order by from_amount), '[]'::jsonb)
       into v_steps from price_steps;
     select coalesce(jsonb_agg(jsonb_build_object('userId', user_id, 'max', max_amount,
                                                  'since', since, 'active', active = 1)), '[]'::jsonb)
       into v_before from proxies where lot_id = p_lot_id;
     v_state := jsonb_build_object(
       'startPrice', v_lot.start_price, 'reservePrice', v_lot.reserve_price, 'price', v_lot.price,
       'leaderId', v_lot.leader_id, 'leaderSince', v_lot.leader_since, 'startsAt', v_lot.starts_at,
       'endsAt', v_lot.ends_at, 'proxies', v_before, 'bidCount', v_lot.bid_count);

     -- An overdue leader's proxy is stopped (BiddingService.withoutOverdueLeader, cancelProxy):
     -- its maximum falls back to the price they hold.
     if v_lot.leader_id is not null and v_lot.leader_id <> p_user_id
        and exists (select 1 from proxies where lot_id = p_lot_id and user_id = v_lot.leader_id
                                            and active = 1)
        and exists (select 1 from orders where user_id = v_lot.leader_id and status = 'overdue') then
       v_state := v_state || jsonb_build_object('proxies', numisma_with_proxy(v_before,
         (select p || jsonb_build_object('max', coalesce(v_lot.price, (p->>'max')::bigint),
                                         'active', false)
            from jsonb_array_elements(v_before) p where (p->>'userId')::bigint = v_lot.leader_id)));
     end if;

     v_decision := numisma_decide_bid(v_state, jsonb_build_object(
       'userId', p_user_id, 'amount', p_amount, 'proxy', p_proxy, 'at', v_now_ms), v_steps);
     if not (v_decision->>'ok')::boolean then
       -- A refusal's details are what the engine says besides its code (minimum, below/above).
       return jsonb_build_object('error', v_decision->>'code', 'details',
         nullif(v_decision - 'ok' - 'code', '{}'::jsonb));
     end if;

     -- The quota (BiddingService.checkQuota over BiddingRepository.exposure), under the lock on
     -- the user's deposit account that serialises one user's bids on different lots
     -- (numisma_place_bids has taken it already, with the batch's others, in user id order).
     select balance into v_deposit from ledger_accounts
      where user_id = p_user_id and kind = 'deposit' for update;
     v_quota := jsonb_build_object(
       'deposit', coalesce(v_deposit, 0),
       'multiplier', p_multiplier,
       'lots', (select coalesce(jsonb_agg(jsonb_build_object('lotId', x.lot_id,
                  'leadingAt', x.leading_at, 'proxyMax', x.proxy_max)), '[]'::jsonb)
                  from (select e.lot_id, max(e.leading_at) as leading_at, max(e.proxy_max) as proxy_max
                          from (select id as lot_id, coalesce(price, 0) as leading_at, 0 as proxy_max
                                  from lots where leader_id = p_user_id and status = 'open'
                                union all
                                select p.lot_id, 0, p.max_amount
                                  from proxies p join lots l on l.id = p.lot_id
                                 where p.user_id = p_user_id and p.active = 1 and l.status = 'open') e
                         group by e.lot_id) x),
       'unpaidOrders', (select coalesce(sum(total), 0) from orders
                         where user_id = p_user_id and kind = 'auction'
                           and status in ('pending_payment', 'overdue')));
     if not numisma_within_quota(v_quota, p_lot_id, p_amount) then
       return jsonb_build_object('error', 'QUOTA_EXCEEDED', 'details', jsonb_build_object(
         'limit', (v_quota->>'deposit')::bigint * p_multiplier,
         'deposit', (v_quota->>'deposit')::bigint,
         'exposure', numisma_quota_exposure(v_quota),
         'recharge', '/account/quotaRecharge'));
     end if;

     v_ends_at := numisma_end_after_bid(v_lot.ends_at, v_now_ms, v_lot.soft_close_window_seconds,
                                      v_lot.soft_close_extend_seconds);
     v_state := (v_decision->'state') || jsonb_build_object('endsAt', v_ends_at);

     -- BiddingRepository.saveState: the lot, and the proxies that changed.
     update lots set price = (v_state->>'price')::bigint, leader_id = (v_state->>'leaderId')::bigint,
                     leader_since = (v_state->>'leaderSince')::bigint,
                     bid_count = (v_state->>'bidCount')::bigint, ends_at = v_ends_at
      where id = p_lot_id;
     insert into proxies as p (lot_id, user_id, max_amount, since, active, cancelled_at, updated_at)
     select p_lot_id, (n->>'userId')::bigint, (n->>'max')::bigint, (n->>'since')::bigint,
            case when (n->>'active')::boolean then 1 else 0 end, null, v_now_ms
       from jsonb_array_elements(v_state->'proxies') n
      where not exists (select 1 from jsonb_array_elements(v_before) o
                         where o->'userId' = n->'userId' and o->'max' = n->'max'
                           and o->'active' = n->'active' and o->'since' = n->'since')
     on conflict (lot_id, user_id) do update set
       -- A new proxy on a lot where an earlier one was cancelled is live again.
       cancelled_at = case when excluded.active = 1 then null else p.cancelled_at end,
       max_amount = excluded.max_amount, since = excluded.since, active = excluded.active,
       updated_at = excluded.updated_at;
     -- BiddingRepository.insertChanges: the price changes, in order.
     insert into bids (lot_id, user_id, amount, auto, created_at)
     select p_lot_id, (c->>'userId')::bigint, (c->>'amount')::bigint,
            case when (c->>'auto')::boolean then 1 else 0 end, v_now_ms
       from jsonb_array_elements(v_decision->'changes') with ordinality t(c, i) order by i;

     v_response := jsonb_build_object(
       'lotId', p_lot_id,
       'price', v_state->'price',
       'bidCount', v_state->'bidCount',
       -- A timestamp without time zone: formatting a timestamptz would use the session's
       -- TimeZone (initdb copies the OS's) and label local time "Z".
       'endsAt', to_char(timestamp 'epoch' + v_ends_at * interval '1 millisecond',
                         'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       'leading', v_decision->'leading',
       'myMax', (select n->'max' from jsonb_array_elements(v_state->'proxies') n
                  where (n->>'userId')::bigint = p_user_id and (n->>'active')::boolean limit 1),
       'notLeading', v_decision->'notLeading');

     if p_key is not null then
       -- An expired row of the same key is replaced; a live one means a concurrent first attempt
       -- on another lot committed it meanwhile: retried (40001), the retry replays it.
       insert into idempotency_keys as k (user_id, key, request_hash, status, body, created_at)
       values (p_user_id, p_key, p_hash, 200, v_response::text, v_now_ms)
       on conflict (user_id, key) do update set request_hash = excluded.request_hash,
         status = 200, body = excluded.body, created_at = excluded.created_at
       where k.created_at < v_now_ms - p_ttl_ms;
       if not found then
         raise exception 'idempotency key claimed concurrently' using errcode = '40001';
       end if;
     end if;

     -- The outbid notice (notices/writer.ts DatabaseNoticeWriter.add, trimmed one id in 16).
     if v_decision->>'outbid' is not null and v_state->>'price' is not null then
       insert into notices (user_id, kind, params, link, created_at, read_at)
       values ((v_decision->>'outbid')::bigint, 'outbid',
               '{"lotId":' || p_lot_id || ',"title":' || to_json(v_lot.title)::text
                 || ',"price":' || (v_state->>'price') || '}',
               '/productDetail?id=' || p_lot_id, v_now_ms, null)
       returning id into v_notice_id;
       -- The trim deletes another user's rows, which a batch on another lot (trimming the same
       -- user) or that user's own reads may hold: it skips locked rows rather than wait while
       -- this statement holds the lot, so it can never take part in a deadlock. What it skips
       -- goes with a later trim.
       if v_notice_id % 16 = 0 then
         delete from notices where id in (
           select id from notices where user_id = (v_decision->>'outbid')::bigint and id <
             (select id from notices where user_id = (v_decision->>'outbid')::bigint
               order by id desc limit 1 offset 199)
           for update skip locked);
       end if;
     end if;

     if v_state->>'leaderId' is not null then
       select display into v_leader_display from users where id = (v_state->>'leaderId')::bigint;
     end if;
     return jsonb_build_object('response', v_response, 'push', jsonb_build_object(
       'status', v_lot.status, 'startsAt', v_lot.starts_at, 'reservePrice', v_lot.reserve_price,
       'leaderId', v_state->'leaderId', 'endsAt', v_ends_at, 'outbid', v_decision->'outbid',
       'title', v_lot.title, 'leader', v_leader_display, 'now', v_now_ms));
   end $$`,

  // Bids on one lot that queued together on an instance, in order, as one statement and one
  // commit: each is numisma_place_bid at the same p_now (the time the batch is applied), and sees
  // what the ones before it wrote. One answer per bid, in order.
  //
  // Lock order (ADR 030): the lot, then the deposit accounts of all the batch's bidders at once,
  // in user id order. Taken bid by bid, in batch order, two batches on two lots with the same
  // bidders in opposite order deadlocked (40P01), and the whole batch failed with it. A lot held
  // elsewhere takes no account locks: every bid then answers busy.
  `create or replace function numisma_place_bids(
     p_bids jsonb, p_now bigint, p_multiplier bigint, p_ttl_ms bigint) returns jsonb
   language plpgsql volatile as $$
   declare
     v_bid jsonb;
     v_results jsonb := '[]'::jsonb;
     v_locked bigint;
   begin
     select id into v_locked from lots where id = (p_bids->0->>'lotId')::bigint
       for update skip locked;
     if found then
       perform 1 from ledger_accounts
        where kind = 'deposit'
          and user_id in (select (b->>'userId')::bigint from jsonb_array_elements(p_bids) b)
        order by user_id
        for update;
     end if;
     for v_bid in select b from jsonb_array_elements(p_bids) with ordinality t(b, i) order by i loop
       v_results := v_results || jsonb_build_array(numisma_place_bid(
         (v_bid->>'lotId')::bigint, (v_bid->>'userId')::bigint, (v_bid->>'amount')::bigint,
         (v_bid->>'proxy')::boolean, p_now, v_bid->>'key', v_bid->>'hash', p_multiplier,
         p_ttl_ms));
     end loop;
     return v_results;
   end $$`,
]
