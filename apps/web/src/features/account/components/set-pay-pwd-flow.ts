import type { SetPayPassword } from '@numisma/contracts/account'
import type { SetPayPasswordRefusal } from '../../../lib/account/pay-password'

/**
 * The steps of /account/setPayPwd as pure data: prove who you are (the old password, or an SMS
 * code when it is forgotten or payment is locked), then the new password twice. Only the server
 * judges the proof, when the new password is sent; a refusal leads back to the step that needs
 * doing again.
 */
export type SetPayPwdStep = 'old' | 'sms' | 'new' | 'confirm'

export type SetPayPwdNotice =
  | { kind: 'mismatch' }
  | { kind: 'old-wrong'; message: string; triesLeft?: number }
  | { kind: 'locked'; until?: string; message?: string }
  | { kind: 'code-wrong'; message: string }
  | { kind: 'proof-required'; message: string }

export type SetPayPwdProof = { oldPassword: string } | { smsCode: string } | null

export interface SetPayPwdFlow {
  step: SetPayPwdStep
  /** Whether a password is set: then the new one needs proof. */
  changing: boolean
  /** Payment locked until then: the old password cannot be tried, an SMS code still can. */
  lockedUntil: string | null
  proof: SetPayPwdProof
  /** The new password, held between its two entries. */
  password: string | null
  notice: SetPayPwdNotice | null
}

export function startFlow(settings: {
  payPasswordSet: boolean
  payLockedUntil: string | null
}): SetPayPwdFlow {
  const { payPasswordSet: changing, payLockedUntil: lockedUntil } = settings
  const locked = changing && lockedUntil !== null
  return {
    step: changing ? (locked ? 'sms' : 'old') : 'new',
    changing,
    lockedUntil: changing ? lockedUntil : null,
    proof: null,
    password: null,
    notice: locked ? { kind: 'locked', until: lockedUntil } : null,
  }
}

const fresh = (flow: SetPayPwdFlow, step: SetPayPwdStep, notice: SetPayPwdNotice | null) => ({
  ...flow,
  step,
  proof: null,
  password: null,
  notice,
})

/** The old password is in: on to the new one. */
export const oldEntered = (flow: SetPayPwdFlow, oldPassword: string): SetPayPwdFlow => ({
  ...flow,
  step: 'new',
  proof: { oldPassword },
  notice: null,
})

/** "Forgot it?": prove the own mobile instead. */
export const chooseSms = (flow: SetPayPwdFlow): SetPayPwdFlow =>
  fresh(flow, 'sms', flow.lockedUntil ? { kind: 'locked', until: flow.lockedUntil } : null)

/** Back from the SMS step to the old password (not while locked). */
export const chooseOld = (flow: SetPayPwdFlow): SetPayPwdFlow =>
  flow.lockedUntil ? flow : fresh(flow, 'old', null)

/** The SMS code is in: on to the new password. */
export const codeEntered = (flow: SetPayPwdFlow, smsCode: string): SetPayPwdFlow => ({
  ...flow,
  step: 'new',
  proof: { smsCode },
  notice: null,
})

export const newEntered = (flow: SetPayPwdFlow, password: string): SetPayPwdFlow => ({
  ...flow,
  step: 'confirm',
  password,
  notice: null,
})

/**
 * The second entry: the body to send when both agree; otherwise both are asked again (either
 * may be the mistyped one), saying why.
 */
export function confirmEntered(
  flow: SetPayPwdFlow,
  again: string,
): { flow: SetPayPwdFlow; submit: SetPayPassword | null } {
  if (flow.password === null || again !== flow.password) {
    return {
      flow: { ...flow, step: 'new', password: null, notice: { kind: 'mismatch' } },
      submit: null,
    }
  }
  return { flow, submit: { password: flow.password, ...(flow.proof ?? {}) } }
}

/** Where a refusal of the server leads; null: stay on the confirmation (a toast said why). */
export function refused(flow: SetPayPwdFlow, refusal: SetPayPasswordRefusal): SetPayPwdFlow | null {
  switch (refusal.kind) {
    case 'old-wrong':
      return fresh(flow, 'old', refusal)
    case 'locked': {
      const lockedUntil = refusal.until ?? flow.lockedUntil
      return {
        ...fresh({ ...flow, lockedUntil }, 'sms', refusal),
        changing: true,
      }
    }
    case 'code-wrong':
      return fresh(flow, 'sms', refusal)
    case 'proof-required':
      return { ...fresh(flow, flow.lockedUntil ? 'sms' : 'old', refusal), changing: true }
    case 'toast':
    case 'none':
      return null
  }
}
