import { useMutation } from '@tanstack/react-query'
import type { LoginResult } from '@numisma/contracts/passport'
import type { WxBindRequest } from '@numisma/contracts/wechat'
import { ApiError, request } from '../../../lib/api-client'

/** An expired bind token is shown by the screen (with a way to authorise again), not toasted. */
export const isBindExpired = (error: unknown): boolean =>
  error instanceof ApiError && error.code === 'WX_BIND_EXPIRED'

/**
 * `POST /passport/wx-bind`: the SMS login plus the token naming the platform's open id; the server
 * links the two and sets the login cookies, as `/passport/login` does.
 */
export function wxBind(input: WxBindRequest): Promise<LoginResult> {
  return request<LoginResult>({
    method: 'POST',
    path: '/passport/wx-bind',
    body: input,
    defaultError: 'REQUEST_FAILED',
    silent: isBindExpired,
  })
}

export function useWxBind() {
  return useMutation({ mutationFn: wxBind })
}
