import { useMutation } from '@tanstack/react-query'
import { request } from '../../../lib/api-client'

export interface CancelProxyResult {
  lotId: number
  cancelled: true
}

/** POST /bidding/cancelProxy: stops future automatic bids; bids already placed stand. */
export function cancelProxy(lotId: number): Promise<CancelProxyResult> {
  return request<CancelProxyResult>({
    method: 'POST',
    path: '/bidding/cancelProxy',
    body: { lotId },
    defaultError: 'CANCEL_PROXY_FAILED',
  })
}

export function useCancelProxy() {
  return useMutation({ mutationFn: cancelProxy })
}
