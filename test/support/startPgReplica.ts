import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { freePort } from './freePort.ts'

/**
 * A PostgreSQL primary and its streaming standby of our own (initdb, pg_basebackup -R) on
 * free ports under a temp directory, from the server binaries Debian installs. The machine's
 * own server is left alone (its pg_hba.conf allows no replication). As root the servers run
 * as the `postgres` user, since PostgreSQL refuses to run as root.
 */
export type PgReplica = {
  primaryUrl: string
  replicaUrl: string
  /** Stops or resumes WAL replay on the standby (`pg_wal_replay_pause`): the replica lags. */
  pauseReplay(): Promise<void>
  resumeReplay(): Promise<void>
  /** Stops the standby only (the primary goes on). */
  stopReplica(): void
  stop(): void
}

export function findPgBin(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_basebackup')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(root, versions[0], 'bin') : undefined
}

export async function startPgReplica(): Promise<PgReplica> {
  const bin = findPgBin()
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql')
  const dir = mkdtempSync(join(tmpdir(), 'scry-pg-'))
  const asRoot = process.getuid?.() === 0
  if (asRoot) execFileSync('chown', ['postgres', dir])
  chmodSync(dir, 0o700)
  const run = (tool: string, args: string[]) => {
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args
    execFileSync(asRoot ? 'runuser' : join(bin, tool), argv, { stdio: 'pipe', cwd: dir })
  }
  const [primaryPort, replicaPort] = [await freePort(), await freePort()]
  const primary = join(dir, 'primary')
  const replica = join(dir, 'replica')
  const start = (data: string, port: number) =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      `${data}.log`,
      '-w',
      '-o',
      `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off`,
      'start',
    ])
  const stopServer = (data: string) => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
    } catch {
      // Already stopped.
    }
  }
  // initdb's default pg_hba.conf with --auth=trust allows replication from 127.0.0.1.
  run('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  start(primary, primaryPort)
  run('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    replica,
    '-R',
    '-X',
    'stream',
    '--no-sync',
  ])
  start(replica, replicaPort)
  const url = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`
  const onReplica = async (text: string) => {
    const client = new pg.Client({ connectionString: url(replicaPort) })
    await client.connect()
    try {
      await client.query(text)
    } finally {
      await client.end()
    }
  }
  return {
    primaryUrl: url(primaryPort),
    replicaUrl: url(replicaPort),
    pauseReplay: () => onReplica('select pg_wal_replay_pause()'),
    resumeReplay: () => onReplica('select pg_wal_replay_resume()'),
    stopReplica: () => stopServer(replica),
    stop() {
      stopServer(replica)
      stopServer(primary)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
