import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Logger } from 'pino'
import { BaseError } from '../internal/errors.ts'

export type Anvil = {
  chainId: number
  port: number
  /** `http://127.0.0.1:<port>` */
  rpcUrl: string
  /** `ws://127.0.0.1:<port>` */
  wsUrl: string
  /** Kills anvil (its whole process group) and waits for it to exit. */
  stop(): Promise<void>
}

export type StartAnvilOptions = {
  /** Default 31337. */
  chainId?: number
  /** Seconds between blocks (interval mining). Default: automine, one block per transaction. */
  blockTime?: number
  /** Dev accounts from the default mnemonic. Default 20. */
  accounts?: number
  /** Ether per dev account. Default 10,000. */
  balance?: number
  /** Default: a free port. */
  port?: number
  /** A geth-style `genesis.json` to start from (`--init`); its chain id must be `chainId`. */
  genesisFile?: string
  /** Aborting stops anvil. */
  signal?: AbortSignal
  logger?: Logger
  /** How long to wait for the first answer to `eth_chainId`. Default 20 s. */
  startTimeoutMs?: number
  /** Keep only the latest state (`--prune-history`), like a node that is not an archive. */
  pruneHistory?: boolean
}

const require = createRequire(import.meta.url)

/**
 * Starts anvil from the `@foundry-rs/anvil` npm package on 127.0.0.1 and resolves once it
 * answers JSON-RPC. The process is killed on `stop()`, on abort and when this process exits.
 */
export async function startAnvil({
  chainId = 31337,
  blockTime,
  accounts = 20,
  balance = 10_000,
  port,
  genesisFile,
  signal,
  logger,
  startTimeoutMs = 20_000,
  pruneHistory = false,
}: StartAnvilOptions = {}): Promise<Anvil> {
  signal?.throwIfAborted()
  const binary = resolveAnvilBinary()
  const args = [
    '--host',
    '127.0.0.1',
    // Port 0: anvil binds a free port itself and prints it, so no other process can take the
    // port between choosing and binding (and no stranger on that port is mistaken for ours).
    '--port',
    String(port ?? 0),
    '--chain-id',
    String(chainId),
    '--accounts',
    String(accounts),
    '--balance',
    String(balance),
    // No --steps-tracing: callTracer, prestateTracer and trace_block re-execute on demand;
    // recording opcode steps for every mined transaction only slows mining down.
    ...(blockTime === undefined ? [] : ['--block-time', String(blockTime)]),
    ...(genesisFile === undefined ? [] : ['--init', genesisFile]),
    ...(pruneHistory ? ['--prune-history'] : []),
  ]
  const anvil = await launch({ binary, args, chainId, startTimeoutMs, signal })
  logger?.debug({ port: anvil.port, chain_id: chainId }, 'Anvil started')
  return anvil
}

async function launch({
  binary,
  args,
  chainId,
  startTimeoutMs,
  signal,
}: {
  binary: string
  args: string[]
  chainId: number
  startTimeoutMs: number
  signal: AbortSignal | undefined
}): Promise<Anvil> {
  // detached: its own process group, so stop() ends anything anvil runs as well.
  const child = spawn(binary, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  trackChild(child)
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000)
  })
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))

  const stop = async () => {
    running.delete(child)
    signal?.removeEventListener('abort', onAbort)
    if (child.exitCode === null && child.signalCode === null) killGroup(child)
    await exited
  }
  const onAbort = () => void stop()
  signal?.addEventListener('abort', onAbort, { once: true })

  const failure = (shortMessage: string, cause?: unknown) => {
    const tail = stderr.trim().split('\n').slice(-15).join('\n')
    return new BaseError(shortMessage, {
      details: tail ? `anvil stderr:\n${tail}` : 'anvil printed nothing on stderr',
      cause,
    })
  }

  let port: number
  try {
    port = await waitForListening({ child, startTimeoutMs, signal })
  } catch (error) {
    await stop()
    signal?.throwIfAborted()
    throw failure(error instanceof Error ? error.message : String(error), error)
  }
  // Its request log goes to stdout; keep draining it so anvil never blocks on a full pipe.
  child.stdout?.resume()

  const rpcUrl = `http://127.0.0.1:${port}`
  const answered = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(startTimeoutMs),
  })
    .then(async (res) => ((await res.json()) as { result?: string }).result)
    .catch((error: unknown) => error)
  if (typeof answered !== 'string' || Number(answered) !== chainId) {
    await stop()
    throw failure(`Anvil on port ${port} did not answer eth_chainId with ${chainId}.`, answered)
  }
  return { chainId, port, rpcUrl, wsUrl: `ws://127.0.0.1:${port}`, stop }
}

/** Resolves with the port from anvil's `Listening on 127.0.0.1:<port>` line. */
function waitForListening({
  child,
  startTimeoutMs,
  signal,
}: {
  child: ChildProcess
  startTimeoutMs: number
  signal: AbortSignal | undefined
}): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = ''
    const done = (error: Error | undefined, port?: number) => {
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      child.off('exit', onExit)
      child.off('error', onError)
      signal?.removeEventListener('abort', onAbort)
      if (error) reject(error)
      else resolve(port!)
    }
    const onData = (chunk: string) => {
      stdout = (stdout + chunk).slice(-2000)
      const match = /Listening on [^\s:]+:(\d+)/.exec(stdout)
      if (match) done(undefined, Number(match[1]))
    }
    const onExit = (code: number | null) =>
      done(new Error(`Anvil exited with code ${code} before listening.`))
    const onError = (error: Error) => done(new Error(`Could not run anvil: ${error.message}`))
    const onAbort = () => done(new Error('Aborted while starting anvil.'))
    const timer = setTimeout(
      () => done(new Error(`Anvil did not start listening within ${startTimeoutMs} ms.`)),
      startTimeoutMs,
    )
    child.stdout?.setEncoding('utf8').on('data', onData)
    child.once('exit', onExit)
    child.once('error', onError)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

// One 'exit' listener for all anvils of this process (many would trip MaxListeners).
const running = new Set<ChildProcess>()
let exitHookInstalled = false
function trackChild(child: ChildProcess): void {
  running.add(child)
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const c of running) killGroup(c)
  })
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, 'SIGKILL')
  } catch {
    // Already gone.
  }
}

/** The anvil binary of the platform package `@foundry-rs/anvil` installs as optional dependency. */
export function resolveAnvilBinary(): string {
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string]
  const name = `@foundry-rs/anvil-${process.platform}-${arch ?? process.arch}`
  let packageJson: string
  try {
    packageJson = require.resolve(`${name}/package.json`)
  } catch (cause) {
    throw new BaseError(`Anvil binary package ${name} is not installed.`, {
      details: `@foundry-rs/anvil installs ${name} as an optional dependency for ${process.platform}/${process.arch}; reinstall dependencies without --no-optional, or check that this platform is supported.`,
      cause,
    })
  }
  const { bin } = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    bin?: string | Record<string, string>
  }
  const relative = typeof bin === 'string' ? bin : (bin?.anvil ?? 'bin/anvil')
  return join(dirname(packageJson), relative)
}

export { type AnvilAccount, anvilAccounts } from './anvilAccounts.ts'
