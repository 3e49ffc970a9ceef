import { describe, expect, it } from 'vitest'
import {
  autoCompleteAt,
  type OrderFacts,
  orderGroup,
  ORDER_GROUP_STATUSES,
  transition,
} from './order-status'

const DAY = 86_400_000
const NOW = 1_800_000_000_000

const order = (overrides: Partial<OrderFacts> = {}): OrderFacts => ({
  kind: 'mall',
  status: 'pending_payment',
  dueAt: NOW + 30 * 60_000,
  shippedAt: null,
  deliveryMethod: null,
  paidOffline: false,
  ...overrides,
})

describe('order transitions (DESIGN §6)', () => {
  it('pays a pending order, and an overdue won lot', () => {
    expect(transition(order(), 'pay', NOW)).toEqual({ ok: true, status: 'paid' })
    const overdue = order({ kind: 'auction', status: 'overdue', dueAt: NOW - DAY })
    expect(transition(overdue, 'pay', NOW)).toEqual({ ok: true, status: 'paid' })
  })

  it('refuses to pay a mall order past its 30 minutes unless it is paid offline', () => {
    const lapsed = order({ dueAt: NOW })
    expect(transition(lapsed, 'pay', NOW)).toEqual({ ok: false, code: 'ORDER_NOT_PAYABLE' })
    expect(transition({ ...lapsed, paidOffline: true }, 'pay', NOW).ok).toBe(true)
    // A won lot past its due time still pays (the overdue job may not have run yet).
    expect(transition({ ...lapsed, kind: 'auction' }, 'pay', NOW).ok).toBe(true)
  })

  it('lets the buyer cancel an unpaid mall order only', () => {
    expect(transition(order(), 'cancel', NOW)).toEqual({ ok: true, status: 'cancelled' })
    for (const o of [
      order({ kind: 'auction' }),
      order({ status: 'paid' }),
      order({ kind: 'auction', status: 'overdue' }),
    ]) {
      expect(transition(o, 'cancel', NOW)).toEqual({ ok: false, code: 'ORDER_NOT_CANCELLABLE' })
    }
  })

  it('expires an unpaid mall order at its due time, not before, not one paid offline', () => {
    const o = order()
    expect(transition(o, 'expire', o.dueAt! - 1)).toEqual({ ok: false, code: 'ORDER_NOT_DUE' })
    expect(transition(o, 'expire', o.dueAt!)).toEqual({ ok: true, status: 'cancelled' })
    expect(transition({ ...o, paidOffline: true }, 'expire', o.dueAt!)).toEqual({
      ok: false,
      code: 'ORDER_PAID_OFFLINE',
    })
  })

  it('marks a won lot overdue at its due time, and staff may then forfeit it', () => {
    const won = order({ kind: 'auction', dueAt: NOW + 3 * DAY })
    expect(transition(won, 'markOverdue', NOW).ok).toBe(false)
    expect(transition(won, 'markOverdue', NOW + 3 * DAY)).toEqual({ ok: true, status: 'overdue' })
    const overdue = { ...won, status: 'overdue' as const }
    expect(transition(overdue, 'forfeit', NOW + 4 * DAY)).toEqual({ ok: true, status: 'cancelled' })
    expect(transition({ ...overdue, paidOffline: true }, 'forfeit', NOW).ok).toBe(false)
    expect(transition(won, 'forfeit', NOW)).toEqual({ ok: false, code: 'ORDER_NOT_OVERDUE' })
    expect(transition({ ...won, status: 'cancelled' }, 'forfeit', NOW)).toEqual({
      ok: false,
      code: 'NOT_PENDING',
    })
  })

  it('books unpaid orders for the counter without changing them; staff closing it completes them', () => {
    const won = order({ kind: 'auction', status: 'overdue', dueAt: NOW - DAY })
    expect(transition(won, 'bookCounter', NOW)).toEqual({ ok: true, status: 'overdue' })
    expect(transition(won, 'settleAtCounter', NOW)).toEqual({ ok: true, status: 'completed' })
    expect(transition(order({ status: 'paid' }), 'bookCounter', NOW)).toEqual({
      ok: false,
      code: 'ORDER_NOT_BOOKABLE',
    })
    expect(transition(order({ dueAt: NOW }), 'bookCounter', NOW).ok).toBe(false)
  })

  it('delivers express: apply → ship → confirm receipt', () => {
    const paid = order({ status: 'paid', dueAt: null })
    const applied = transition(paid, 'applyDelivery', NOW)
    expect(applied).toEqual({ ok: true, status: 'delivery_applied' })
    const inStorage = {
      ...paid,
      status: 'delivery_applied' as const,
      deliveryMethod: 'express' as const,
    }
    expect(transition(inStorage, 'handOver', NOW)).toEqual({
      ok: false,
      code: 'ORDER_NOT_SHIPPABLE',
    })
    expect(transition(inStorage, 'ship', NOW)).toEqual({ ok: true, status: 'shipped' })
    const shipped = { ...inStorage, status: 'shipped' as const, shippedAt: NOW }
    expect(transition(shipped, 'confirmReceipt', NOW)).toEqual({ ok: true, status: 'completed' })
    expect(transition(inStorage, 'confirmReceipt', NOW)).toEqual({
      ok: false,
      code: 'ORDER_NOT_RECEIVABLE',
    })
  })

  it('delivers a pickup by handing it over, never by shipping', () => {
    const applied = order({ status: 'delivery_applied', deliveryMethod: 'pickup' })
    expect(transition(applied, 'ship', NOW)).toEqual({ ok: false, code: 'ORDER_NOT_SHIPPABLE' })
    expect(transition(applied, 'handOver', NOW)).toEqual({ ok: true, status: 'completed' })
    expect(transition(order({ status: 'paid' }), 'handOver', NOW).ok).toBe(false)
  })

  it('completes a shipped order by itself 15 days after shipping, not a millisecond before', () => {
    const shipped = order({ status: 'shipped', deliveryMethod: 'express', shippedAt: NOW })
    expect(autoCompleteAt(NOW)).toBe(NOW + 15 * DAY)
    expect(transition(shipped, 'autoComplete', NOW + 15 * DAY - 1)).toEqual({
      ok: false,
      code: 'ORDER_NOT_DUE',
    })
    expect(transition(shipped, 'autoComplete', NOW + 15 * DAY)).toEqual({
      ok: true,
      status: 'completed',
    })
  })

  it('applies delivery to paid goods only', () => {
    for (const status of ['pending_payment', 'delivery_applied', 'shipped', 'cancelled'] as const) {
      expect(transition(order({ status }), 'applyDelivery', NOW)).toEqual({
        ok: false,
        code: 'ORDER_NOT_SHIPPABLE',
      })
    }
  })
})

describe('order groups (spec §4)', () => {
  it('puts every status but cancelled in exactly the group its list shows', () => {
    expect(orderGroup('pending_payment')).toBe('pendingPayment')
    expect(orderGroup('overdue')).toBe('pendingPayment')
    expect(orderGroup('paid')).toBe('waitingToShip')
    expect(orderGroup('delivery_applied')).toBe('waitingToShip')
    expect(orderGroup('shipped')).toBe('waitingToReceive')
    expect(orderGroup('completed')).toBe('completed')
    expect(orderGroup('cancelled')).toBeNull()
  })

  it('keeps the user centre’s counted groups as the server counts them today', () => {
    // apps/server/src/modules/user/service.ts ORDER_GROUPS.
    expect(ORDER_GROUP_STATUSES.waitingToShip).toEqual(['paid', 'delivery_applied'])
    expect(ORDER_GROUP_STATUSES.waitingToReceive).toEqual(['shipped'])
  })
})
