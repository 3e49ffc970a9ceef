import { useMutation } from '@tanstack/react-query'
import { request } from '../../../lib/api-client'

export interface SmsSent {
  sent: true
  /** The code itself, outside production only (there is no real SMS there). */
  devCode?: string
}

export function sendSms(mobile: string): Promise<SmsSent> {
  return request<SmsSent>({
    method: 'POST',
    path: '/passport/sms',
    body: { mobile },
    defaultError: 'REQUEST_FAILED',
  })
}

export function useSendSms() {
  return useMutation({ mutationFn: sendSms })
}
