import { hmacSignature, xSign } from '@numisma/contracts/signing'
import { describe, expect, it } from 'vitest'
import { prng } from '../../test/helpers/fuzz/generate'
import { hmacSignatureNative, xSignNative } from './crypto'

/** Text with what a header or path may carry: ASCII, CJK, emoji (surrogate pairs), spaces. */
function text(random: () => number, max: number): string {
  const alphabet = ['a', 'Z', '9', '/', '@', '-', '_', ' ', '%', '钱', '币', '🪙', 'é', '\n']
  let out = ''
  const length = Math.floor(random() * max)
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)]
  return out
}

describe('native signing checks', () => {
  it('give what the contracts give, for 2,000 generated inputs', () => {
    const random = prng(20261127)
    for (let i = 0; i < 2000; i++) {
      const [key, path, device, nonce, secret] = [64, 80, 40, 40, 48].map((n) => text(random, n))
      const method = random() < 0.5 ? 'GET' : 'post'
      const timestamp = String(1_700_000_000_000 + Math.floor(random() * 1e9))
      expect(hmacSignatureNative(key!, method, path!, device!)).toBe(
        hmacSignature(key!, method, path!, device!),
      )
      expect(xSignNative(nonce!, timestamp, secret!)).toBe(xSign(nonce!, timestamp, secret!))
    }
  })
})
