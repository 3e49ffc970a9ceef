import argon2 from 'argon2'
import { randomToken } from '../../platform/crypto'
import type { SettingsRepository } from '../../platform/settings-repository'

/** Turns a payment password into what is stored, and checks one against it. */
export interface PayPasswordHasher {
  hash(password: string): Promise<string>
  verify(hash: string, password: string): Promise<boolean>
}

/** argon2id with OWASP's minimum (19 MiB, t=2), as the staff passwords (DESIGN §3). */
const HASH_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const

/**
 * argon2id keyed with the server's pepper (argon2's `secret` input, RFC 9106 "K"): six digits are a
 * million guesses, so a stolen table alone must not be enough to try them offline.
 */
export class Argon2PayPasswordHasher implements PayPasswordHasher {
  private readonly secret: Buffer

  constructor(pepper: string) {
    this.secret = Buffer.from(pepper, 'utf8')
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, { ...HASH_OPTIONS, secret: this.secret })
  }

  verify(hash: string, password: string): Promise<boolean> {
    return argon2.verify(hash, password, { secret: this.secret })
  }
}

export const PEPPER_SETTING = 'pay_password_pepper'

/**
 * PAY_PASSWORD_PEPPER when configured (production requires it: server.ts refuses to start
 * without). Otherwise, for development and tests, a random pepper made once and kept in the
 * settings table, so stored passwords still verify after a restart.
 */
export async function payPasswordPepper(
  configured: string | undefined,
  settings: SettingsRepository,
): Promise<string> {
  return configured ?? (await settings.getOrInsert(PEPPER_SETTING, randomToken(32)))
}
