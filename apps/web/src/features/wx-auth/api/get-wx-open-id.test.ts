import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeServer as server, lastCall, resetFakeServer } from '../../../test/fake-api-client'
import { exchangeWxCodeOnce, getWxOpenId } from './get-wx-open-id'

vi.mock('../../../lib/api-client', async (importOriginal) =>
  (await import('../../../test/fake-api-client')).fakeApiClient(await importOriginal()),
)

beforeEach(resetFakeServer)

const unlinked = {
  linked: false,
  openid: 'o-sandbox-1',
  bindToken: 'bind-1',
  nickname: '阿泉',
  avatar: '/svc/sandbox/wx/avatar/1.png',
}

describe('the code exchange', () => {
  it('asks GET /h5/auth/getWxOpenId/{code}, quietly, and checks the answer against the contract', async () => {
    server.reply = unlinked
    await expect(getWxOpenId('a/b c')).resolves.toEqual(unlinked)
    expect(lastCall()).toMatchObject({
      method: 'GET',
      path: '/h5/auth/getWxOpenId/a%2Fb%20c',
      silent: true,
    })
    server.reply = { linked: false, openid: 'o' }
    await expect(getWxOpenId('another')).rejects.toThrow()
  })

  it('sends a code once however often the page asks (StrictMode runs effects twice)', async () => {
    server.reply = unlinked
    const first = exchangeWxCodeOnce('code-once')
    const second = exchangeWxCodeOnce('code-once')
    expect(second).toBe(first)
    await expect(second).resolves.toEqual(unlinked)
    expect(server.calls).toHaveLength(1)
    await exchangeWxCodeOnce('code-other')
    expect(server.calls).toHaveLength(2)
  })
})
