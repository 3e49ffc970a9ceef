import { useMutation } from '@tanstack/react-query'
import type { LoginRequest, LoginResult } from '@numisma/contracts/passport'
import { request } from '../../../lib/api-client'

/** The server sets the login cookies (spec §3) on success. */
export function login(input: LoginRequest): Promise<LoginResult> {
  return request<LoginResult>({
    method: 'POST',
    path: '/passport/login',
    body: input,
    defaultError: 'REQUEST_FAILED',
  })
}

export function useLogin() {
  return useMutation({ mutationFn: login })
}
