import { ShareSignatureSchema, type ShareSignature } from '@numisma/contracts/wechat'
import { request } from '../api-client'

/**
 * GET /h5/wechat/jsapi-signature?url= (spec §7 "Share"), signed like every call. Silent: the
 * share set-up says 'failed to initialise sharing' itself, once, whichever step failed.
 */
export function getShareSignature(url: string): Promise<ShareSignature> {
  return request({
    path: '/h5/wechat/jsapi-signature',
    query: { url },
    defaultError: 'SHARE_INIT_FAILED',
    schema: ShareSignatureSchema,
    silent: true,
  })
}
