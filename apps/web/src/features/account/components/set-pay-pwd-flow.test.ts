import { describe, expect, it } from 'vitest'
import {
  chooseOld,
  chooseSms,
  codeEntered,
  confirmEntered,
  newEntered,
  oldEntered,
  refused,
  startFlow,
  type SetPayPwdFlow,
} from './set-pay-pwd-flow'

const UNTIL = '2030-01-02T03:04:05.000Z'
const first = () => startFlow({ payPasswordSet: false, payLockedUntil: null })
const change = () => startFlow({ payPasswordSet: true, payLockedUntil: null })
const locked = () => startFlow({ payPasswordSet: true, payLockedUntil: UNTIL })

/** Enters the new password twice; the body it would send, or the flow it leads to. */
const twice = (flow: SetPayPwdFlow, password: string, again = password) =>
  confirmEntered(newEntered(flow, password), again)

describe('set-pay-pwd flow', () => {
  it('asks a first password twice and sends it without proof', () => {
    const flow = first()
    expect(flow.step).toBe('new')
    expect(twice(flow, '864200').submit).toEqual({ password: '864200' })
  })

  it('asks the old password first when changing, and sends it along', () => {
    const flow = change()
    expect(flow.step).toBe('old')
    const afterOld = oldEntered(flow, '135790')
    expect(afterOld.step).toBe('new')
    expect(twice(afterOld, '864200').submit).toEqual({
      password: '864200',
      oldPassword: '135790',
    })
  })

  it('takes an SMS code instead when the old one is forgotten, and can go back', () => {
    const sms = chooseSms(change())
    expect(sms.step).toBe('sms')
    expect(chooseOld(sms).step).toBe('old')
    const afterCode = codeEntered(sms, '123456')
    expect(twice(afterCode, '864200').submit).toEqual({ password: '864200', smsCode: '123456' })
  })

  it('starts at the SMS code while payment is locked, and stays there', () => {
    const flow = locked()
    expect(flow).toMatchObject({ step: 'sms', notice: { kind: 'locked', until: UNTIL } })
    expect(chooseOld(flow)).toBe(flow)
  })

  it('asks both entries again when they differ, saying so', () => {
    const { flow, submit } = twice(oldEntered(change(), '135790'), '864200', '864201')
    expect(submit).toBeNull()
    expect(flow).toMatchObject({ step: 'new', password: null, notice: { kind: 'mismatch' } })
    // The proof is kept: only the new password is asked again.
    expect(twice(flow, '111222').submit).toEqual({ password: '111222', oldPassword: '135790' })
  })

  it('sends a refusal back to the step that needs doing again, forgetting what was entered', () => {
    const ready = newEntered(oldEntered(change(), '000000'), '864200')
    const wrong = refused(ready, { kind: 'old-wrong', message: '支付密码错误', triesLeft: 3 })
    expect(wrong).toMatchObject({
      step: 'old',
      proof: null,
      password: null,
      notice: { kind: 'old-wrong', triesLeft: 3 },
    })

    const lock = refused(ready, { kind: 'locked', message: '锁定', until: UNTIL })
    expect(lock).toMatchObject({ step: 'sms', lockedUntil: UNTIL, proof: null })
    expect(chooseOld(lock!)).toBe(lock)

    const code = refused(codeEntered(chooseSms(change()), '111111'), {
      kind: 'code-wrong',
      message: '验证码错误或已过期',
    })
    expect(code).toMatchObject({ step: 'sms', proof: null, notice: { kind: 'code-wrong' } })

    // Set on another device meanwhile: now it is a change.
    const meanwhile = refused(newEntered(first(), '864200'), {
      kind: 'proof-required',
      message: '需要原密码',
    })
    expect(meanwhile).toMatchObject({ step: 'old', changing: true })

    expect(refused(ready, { kind: 'toast', message: '请求过于频繁' })).toBeNull()
  })
})
