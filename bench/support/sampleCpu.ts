import { readdir, readFile } from 'node:fs/promises'

/** CPU seconds (user + system) used so far, by who used them. */
export type CpuSample = { scry: number; anvil: number; postgres: number }

/** Clock ticks per second of /proc's times (USER_HZ: 100 on every Linux build in use). */
const TICKS = 100

/**
 * CPU time used so far by Scry (this process, or `scryPid` when it runs in a process of its
 * own), every anvil process and every PostgreSQL server process, from /proc (Linux; elsewhere
 * undefined). The difference of two samples is what a run cost each of them: which one kept
 * a core busy, and whether two cores were. A PostgreSQL backend that exits between the two
 * samples is not counted (the store's pool keeps its connections for the run).
 */
export async function sampleCpu(scryPid?: number): Promise<CpuSample | undefined> {
  if (process.platform !== 'linux') return undefined
  const sample: CpuSample = { scry: 0, anvil: 0, postgres: 0 }
  if (scryPid === undefined) {
    const own = process.cpuUsage()
    sample.scry = (own.user + own.system) / 1e6
  }
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined)
    if (stat === undefined) continue
    // pid (comm) state ppid …: comm may hold spaces, the fields after it do not.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const used = (Number(fields[11]) + Number(fields[12])) / TICKS
    if (Number(entry) === scryPid) sample.scry += used
    else if (comm === 'anvil') sample.anvil += used
    else if (comm === 'postgres') sample.postgres += used
  }
  return sample
}

/** What was used between two samples (undefined where either is). */
export function cpuBetween(
  before: CpuSample | undefined,
  after: CpuSample | undefined,
): CpuSample | undefined {
  if (!before || !after) return undefined
  return {
    scry: after.scry - before.scry,
    anvil: after.anvil - before.anvil,
    postgres: after.postgres - before.postgres,
  }
}
