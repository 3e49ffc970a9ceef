import type {
  AuditEntry,
  AuditQuery,
  StaffMember,
  StaffMemberCreate,
  StaffMemberUpdate,
  StaffSession,
} from '@numisma/contracts/staff'
import argon2 from 'argon2'
import type { Clock } from '../../platform/clock'
import { randomToken, sha256Hex } from '../../platform/crypto'
import type { Database } from '../../platform/db'
import { AppError } from '../../platform/errors'
import { type Transact, transactor } from '../../platform/transactions'
import { AuditRepository, type AuditRecord } from './audit-repository'
import { StaffRepository } from './repository'

export const STAFF_SESSION_MS = 12 * 60 * 60 * 1000
export const BOOTSTRAP_USERNAME = 'admin'

/** argon2id with OWASP's minimum (19 MiB, t=2), as for payment passwords (DESIGN §3). */
const HASH_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const

const hash = (password: string) => argon2.hash(password, HASH_OPTIONS)

// Verifying against a fixed hash when the user is unknown keeps response times alike.
let dummyHash: Promise<string> | undefined

export interface StaffDeps {
  repo: StaffRepository
  audit: AuditRepository
  clock: Clock
  transact: Transact
}

/** Staff accounts, their roles and sessions (ADR 021). */
export class StaffService {
  constructor(private readonly deps: StaffDeps) {}

  static forDatabase(database: Database, clock: Clock): StaffService {
    return new StaffService({
      repo: new StaffRepository(database.db, database.dialect),
      audit: new AuditRepository(database.db),
      clock,
      transact: transactor(database),
    })
  }

  /**
   * Makes sure the bootstrap admin exists. Returns the generated password when it had to invent
   * one (no NUMISMA_ADMIN_PASSWORD), so start-up can print it once.
   */
  async bootstrap(password: string | undefined): Promise<{ created: boolean; generated?: string }> {
    const { repo, clock, transact } = this.deps
    if (await repo.findByUsername(BOOTSTRAP_USERNAME)) return { created: false }
    const chosen = password ?? randomToken(12)
    const passwordHash = await hash(chosen)
    const id = await transact((tx) =>
      repo.create(tx, {
        username: BOOTSTRAP_USERNAME,
        passwordHash,
        roles: ['admin'],
        now: clock.now(),
      }),
    )
    const created = id !== null
    return created && !password ? { created, generated: chosen } : { created }
  }

  async login(username: string, password: string): Promise<{ sid: string; username: string }> {
    const { repo, clock } = this.deps
    const staff = await repo.findByUsername(username)
    dummyHash ??= hash(randomToken(12))
    const ok = await argon2.verify(staff?.password_hash ?? (await dummyHash), password)
    // A disabled account is refused like a wrong password: no hint that the name exists.
    if (!staff || !ok || staff.disabled_at !== null) throw new AppError('STAFF_LOGIN_FAILED')
    const sid = randomToken(32)
    const now = clock.now()
    await repo.insertSession(sha256Hex(sid), staff.id, now, now + STAFF_SESSION_MS)
    return { sid, username: staff.username }
  }

  async sessionOf(sid: string | undefined): Promise<StaffSession> {
    const { repo, clock } = this.deps
    const staff = sid ? await repo.findSession(sha256Hex(sid), clock.now()) : undefined
    if (!staff) throw new AppError('UNAUTHENTICATED')
    return staff
  }

  async logout(sid: string | undefined): Promise<void> {
    if (sid) await this.deps.repo.deleteSession(sha256Hex(sid))
  }

  list(): Promise<StaffMember[]> {
    return this.deps.repo.list()
  }

  async create(input: StaffMemberCreate): Promise<StaffMember> {
    const { repo, clock, transact } = this.deps
    const passwordHash = await hash(input.password)
    const id = await transact((tx) =>
      repo.create(tx, {
        ...input,
        roles: [...new Set(input.roles)],
        passwordHash,
        now: clock.now(),
      }),
    )
    if (id === null) throw new AppError('STAFF_USERNAME_TAKEN')
    return this.member(id)
  }

  /**
   * Changes roles, password or whether the account may sign in. An admin cannot lock themselves
   * out (STAFF_SELF_LOCKOUT), and no change may leave the house without an enabled admin
   * (STAFF_LAST_ADMIN, judged under the admins' row locks); a disabled account or a new password
   * ends the account's sessions.
   */
  async update(actorId: number, staffId: number, change: StaffMemberUpdate) {
    const { repo, clock, transact } = this.deps
    const passwordHash = change.password === undefined ? undefined : await hash(change.password)
    const before = await this.member(staffId)
    await transact(async (tx) => {
      await repo.lockAdmins(tx)
      const account = await repo.lockAccount(tx, staffId)
      if (!account) throw new AppError('NOT_FOUND')
      const dropsOwnAdmin =
        actorId === staffId &&
        (change.disabled === true ||
          (change.roles !== undefined && !change.roles.includes('admin')))
      if (dropsOwnAdmin) throw new AppError('STAFF_SELF_LOCKOUT')
      if (change.roles) await repo.setRoles(tx, staffId, [...new Set(change.roles)])
      await repo.update(tx, staffId, {
        passwordHash,
        disabledAt:
          change.disabled === undefined ? undefined : change.disabled ? clock.now() : null,
      })
      if (change.disabled === true || passwordHash !== undefined)
        await repo.deleteSessionsOf(tx, staffId)
      if ((await repo.activeAdmins(tx)) === 0) throw new AppError('STAFF_LAST_ADMIN')
    })
    return { before, after: await this.member(staffId) }
  }

  recordAudit(entry: AuditRecord): Promise<void> {
    return this.deps.audit.record(entry)
  }

  auditLog(query: AuditQuery): Promise<AuditEntry[]> {
    return this.deps.audit.list(query)
  }

  private async member(staffId: number): Promise<StaffMember> {
    const member = (await this.deps.repo.list()).find((m) => m.id === staffId)
    if (!member) throw new AppError('NOT_FOUND')
    return member
  }
}
