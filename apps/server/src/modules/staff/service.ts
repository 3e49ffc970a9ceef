import argon2 from 'argon2'
import type { Clock } from '../../platform/clock'
import { randomToken, sha256Hex } from '../../platform/crypto'
import { AppError } from '../../platform/errors'
import type { StaffRepository } from './repository'

export const STAFF_SESSION_MS = 12 * 60 * 60 * 1000
export const BOOTSTRAP_USERNAME = 'admin'

/** argon2id with OWASP's minimum (19 MiB, t=2), as for payment passwords (DESIGN §3). */
const HASH_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const

// Verifying against a fixed hash when the user is unknown keeps response times alike.
let dummyHash: Promise<string> | undefined

export class StaffService {
  constructor(
    private readonly repo: StaffRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Makes sure the bootstrap account exists. Returns the generated password when it had to
   * invent one (no NUMISMA_ADMIN_PASSWORD), so start-up can print it once.
   */
  async bootstrap(password: string | undefined): Promise<{ created: boolean; generated?: string }> {
    if (await this.repo.findByUsername(BOOTSTRAP_USERNAME)) return { created: false }
    const chosen = password ?? randomToken(12)
    const created = await this.repo.createIfMissing(
      BOOTSTRAP_USERNAME,
      await argon2.hash(chosen, HASH_OPTIONS),
      this.clock.now(),
    )
    return created && !password ? { created, generated: chosen } : { created }
  }

  async login(username: string, password: string): Promise<{ sid: string; username: string }> {
    const staff = await this.repo.findByUsername(username)
    dummyHash ??= argon2.hash(randomToken(12), HASH_OPTIONS)
    const hash = staff?.password_hash ?? (await dummyHash)
    const ok = await argon2.verify(hash, password)
    if (!staff || !ok) throw new AppError('STAFF_LOGIN_FAILED')
    const sid = randomToken(32)
    const now = this.clock.now()
    await this.repo.insertSession(sha256Hex(sid), staff.id, now, now + STAFF_SESSION_MS)
    return { sid, username: staff.username }
  }

  async sessionOf(sid: string | undefined): Promise<{ staffId: number; username: string }> {
    const staff = sid ? await this.repo.findSession(sha256Hex(sid), this.clock.now()) : undefined
    if (!staff) throw new AppError('UNAUTHENTICATED')
    return staff
  }

  async logout(sid: string | undefined): Promise<void> {
    if (sid) await this.repo.deleteSession(sha256Hex(sid))
  }
}
