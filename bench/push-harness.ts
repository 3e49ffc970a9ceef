/**
 * What only the push benchmarks (push-fanout.ts, idle-connections.ts) share: the server in
 * production mode, the watcher processes (push-watchers.ts), /proc counts and the machine's load;
 * the rest is in support.ts.
 */
import { fork, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { WatcherCommand, WatcherReply } from './push-watchers'
import { machineInfo, PRODUCTION_ENV, root, round, startServer, writeReport } from './support'

/** `apps/server/src/server.ts` as production runs it (NUMISMA_ENV=production, JSON logs at warn). */
export function startProductionServer(env: Record<string, string>) {
  return startServer({ ...PRODUCTION_ENV, ...env })
}

/** What a watcher process answers to each command. */
type ReplyTo<C extends WatcherCommand> = Extract<
  WatcherReply,
  { ev: C extends { cmd: 'open' } ? 'opened' : C extends { cmd: 'status' } ? 'status' : 'report' }
>

/** A watcher process (push-watchers.ts) and a request/answer over its IPC channel. */
export class WatcherProcess {
  private readonly child: ChildProcess
  private readonly waiting: ((reply: WatcherReply) => void)[] = []

  constructor() {
    this.child = fork(path.join(root, 'bench', 'push-watchers.ts'), [], {
      cwd: root,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, NUMISMA_BENCH_WATCHER: '1' },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    this.child.on('message', (reply: WatcherReply) => this.waiting.shift()?.(reply))
  }

  ask<C extends WatcherCommand>(command: C, timeoutMs = 120_000): Promise<ReplyTo<C>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`watcher: no answer to ${command.cmd}`)),
        timeoutMs,
      )
      this.waiting.push((reply) => {
        clearTimeout(timer)
        resolve(reply as ReplyTo<C>)
      })
      this.child.send(command)
    })
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return
    const exited = new Promise((r) => this.child.once('exit', r))
    this.child.send({ cmd: 'close' } satisfies WatcherCommand)
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
}

/** Resident memory of a process in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)
  return kb ? Number(kb[1]) * 1024 : 0
}

/** Open file descriptors of a process (Linux /proc). */
export function openFilesOf(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length
}

/** The open-files limit (soft, hard) of a process, from /proc/<pid>/limits. */
export function openFilesLimitOf(pid: number): { soft: number; hard: number } {
  const limits = fs.readFileSync(`/proc/${pid}/limits`, 'utf8')
  const line = /Max open files\s+(\d+)\s+(\d+)/.exec(limits)
  return { soft: Number(line?.[1] ?? 0), hard: Number(line?.[2] ?? 0) }
}

/** The machine's load when the benchmark started: other work on it skews every figure. */
const loadAtStart = os.loadavg()

export function machine() {
  return {
    ...machineInfo(),
    loadAverageAtStart: loadAtStart.map((n) => round(n)),
    loadAverageAtEnd: os.loadavg().map((n) => round(n)),
    note:
      'loopback only; server, watcher processes and load share this machine, so their CPU ' +
      'competes; figures from a busy shared machine are noisy',
  }
}

export function writeResult(name: string, report: unknown): void {
  writeReport(path.join(root, 'bench', 'results', name), report)
}
