import { describe, expect, it } from 'vitest'
import { BidRequestSchema } from './bidding'
import { BID_AMOUNT_MAX, ORDER_QUANTITY_MAX } from './limits'
import { CreateOrderRequestSchema } from './mall'

describe('limits', () => {
  it('are the bounds the request schemas enforce', () => {
    expect(BidRequestSchema.shape.amount.maxValue).toBe(BID_AMOUNT_MAX)
    expect(CreateOrderRequestSchema.shape.quantity.maxValue).toBe(ORDER_QUANTITY_MAX)
  })
})
