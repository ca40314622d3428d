import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const SCRY = fileURLToPath(new URL('../../bin/scry.js', import.meta.url))

/**
 * `scry start` as a child process against one anvil chain (parity traces, silent logs, any
 * free port), for tests that kill and restart it. `extra` adds flags.
 */
export function spawnScryStart({
  chainId,
  rpcUrl,
  database,
  batchSize,
  extra = [],
}: {
  chainId: number
  rpcUrl: string
  database: string
  batchSize: number
  extra?: readonly string[]
}): ChildProcess {
  return spawn(
    process.execPath,
    [
      SCRY,
      'start',
      '--rpc',
      `${chainId}=${rpcUrl}`,
      '--database',
      database,
      '--batch-size',
      `${chainId}=${batchSize}`,
      '--log-level',
      'silent',
      '--port',
      '0',
      '--traces',
      `${chainId}=parity`,
      ...extra,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
}

/** Resolves with the exit code once the process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode)
    else child.once('exit', (code) => resolve(code))
  })
}
