import { setMaxListeners } from 'node:events'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { createAccounts } from '../../accounts/createAccounts.ts'
import type { ChainConfig, ScryConfig } from '../../config/types.ts'
import { runTrickle } from '../../dev/runTrickle.ts'
import { worldDefi } from '../../dev/worldDefi.ts'
import { worldPricing } from '../../dev/worldPricing.ts'
import { createLogger, type Logger } from '../../internal/logger.ts'
import { assertPortFree } from '../../net/assertPortFree.ts'
import { createStore, type Store } from '../../store/createStore.ts'
import { claimSqliteFile } from '../../store/sqlite/claimSqliteFile.ts'
import { makeDirectorySync } from '../../utils/makeDirectorySync.ts'
import { formatTryBlock } from '../dev/formatTryBlock.ts'
import { formatDevStatus, readDevStatus } from '../dev/readDevStatus.ts'
import { type LocalChain, startLocalChains } from '../dev/startLocalChains.ts'
import {
  formatSvmTryBlock,
  type LocalSvmChain,
  startLocalSvmChains,
} from '../dev/startLocalSvmChains.ts'
import { formatDuration, formatProgress } from '../formatProgress.ts'
import { runNode } from '../runNode.ts'

export type DevOptions = {
  /** Chain ids of the local chains to run (`--chains`); `undefined` when not given. */
  chains: number[] | undefined
}

/** Local chains `scry dev` runs when `--chains` is not given. */
export const DEFAULT_DEV_CHAINS: readonly number[] = [1, 8453, 42161]

const STATUS_EVERY_MS = 10_000
const TRICKLE_INTERVAL_MS = 2_000

/**
 * `scry dev`: local anvil chains with a demo world each, indexed into a fresh SQLite file
 * (`<dataDir>/dev.sqlite`) while new demo transactions keep coming, until `signal` aborts.
 * Output for a person goes to `write` (default stdout); JSON logs go to `<dataDir>/dev.log`.
 */
export async function runDev({
  config,
  options,
  signal,
  write = (text) => process.stdout.write(text),
}: {
  config: ScryConfig
  options: DevOptions
  signal: AbortSignal
  write?: (text: string) => void
}): Promise<number> {
  const started = Date.now()
  const chains = (options.chains ?? DEFAULT_DEV_CHAINS).map((chainId) => ({
    chainId,
    name: config.catalogue.find((c) => c.chainId === chainId)?.name ?? `chain_${chainId}`,
  }))
  // Said now, not after the chains and worlds are built (half a minute and more).
  await assertPortFree(config.server)
  const databaseFile = join(config.dataDir, 'dev.sqlite')
  const logFile = join(config.dataDir, 'dev.log')
  makeDirectorySync(config.dataDir)
  // Before anything is deleted: a `scry dev` already running in this directory keeps its files.
  const claim = claimSqliteFile(databaseFile, '`scry dev` with this data dir')
  // The anvil chains are new on every run: data from an earlier run would not match them.
  await Promise.all(
    [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`, logFile].map((f) =>
      rm(f, { force: true }),
    ),
  )
  const logger = createLogger({ level: config.log.level, destination: logFile })
  write(
    [
      'scry dev: local chains with a demo world, indexed as they go',
      `  data dir  ${config.dataDir}`,
      `  database  ${databaseFile} (new on every run)`,
      `  log       ${logFile}`,
      '',
      '',
    ].join('\n'),
  )

  let local: LocalChain[] = []
  const svm: LocalSvmChain[] = []
  let store: Store | undefined
  try {
    local = await startLocalChains({ chains, logger, write, signal })
    await startLocalSvmChains({ logger, write, signal, started: svm })
    store = createStore({ url: databaseFile })
    await store.migrate()
    const { key } = await createAccounts({ store }).createKey({ name: 'dev' })
    await indexLocalChains({
      config: { ...config, svm: svm.map((c) => c.config) },
      svm,
      local,
      store,
      logger,
      signal,
      write,
      databaseFile,
      started,
      apiKey: key,
    })
  } catch (error) {
    // Ctrl-C during startup is a normal way to stop, not a failure.
    if (!signal.aborted) throw error
  } finally {
    await store?.close()
    claim.release()
    await Promise.all(local.map((c) => c.anvil.stop()))
    for (const c of svm) c.node.stop()
    logger.flush()
  }
  write('stopped\n')
  return 0
}

/** Indexers and trickles on the built worlds until `signal` aborts (or an indexer fails). */
async function indexLocalChains({
  config,
  svm,
  apiKey,
  local,
  store,
  logger,
  signal,
  write,
  databaseFile,
  started,
}: {
  config: ScryConfig
  /** Surfpool chains served by the API. */
  svm: readonly LocalSvmChain[]
  apiKey: string
  local: LocalChain[]
  store: Store
  logger: Logger
  signal: AbortSignal
  write: (text: string) => void
  databaseFile: string
  started: number
}): Promise<void> {
  // Stops trickles and status lines also when indexing fails on its own.
  const controller = new AbortController()
  // Every indexer, trickle and wait listens on it: more than Node's default of 10.
  setMaxListeners(0, controller.signal)
  const onAbort = () => controller.abort(signal.reason)
  signal.addEventListener('abort', onAbort, { once: true })
  if (signal.aborted) controller.abort(signal.reason)
  const stopping = controller.signal

  const trickles = local.map((c) =>
    runTrickle({
      world: c.world,
      rpcUrl: c.anvil.rpcUrl,
      intervalMs: TRICKLE_INTERVAL_MS,
      signal: stopping,
      logger: logger.child({ chain_id: c.chainId }),
    }).catch((error: unknown) => {
      if (!stopping.aborted) logger.error({ chain_id: c.chainId, err: error }, 'Trickle stopped')
    }),
  )

  let timer: NodeJS.Timeout | undefined
  let printing: Promise<void> = Promise.resolve()
  const printStatus = () => {
    printing = printing.then(async () => {
      if (stopping.aborted) return
      const rows = await readDevStatus({
        store,
        chains: local.map((c) => ({ chainId: c.chainId, label: c.label, rpcUrl: c.anvil.rpcUrl })),
      }).catch((error: unknown) => {
        logger.warn({ err: error }, 'Status read failed')
        return undefined
      })
      if (rows && !stopping.aborted) write(`\n${formatDevStatus(rows)}`)
    })
  }

  const caughtUp = new Set<number>()
  const names = new Map(local.map((c) => [c.chainId, c.name] as const))
  const onAllCaughtUp = () => {
    const seconds = formatDuration((Date.now() - started) / 1000)
    write(
      `\nReady in ${seconds}: the demo worlds are indexed. New demo transactions keep coming\n` +
        `(1–3 every ${TRICKLE_INTERVAL_MS / 1000} s per chain, one block each) and scry follows them.\n\n`,
    )
    write(formatTryBlock({ chains: local, databaseFile, apiUrl, apiKey }))
    write(formatSvmTryBlock({ chains: svm, apiUrl, apiKey }))
    write('Press Ctrl-C to stop.\n')
    printStatus()
    timer = setInterval(printStatus, STATUS_EVERY_MS)
  }

  write(
    `\nIndexing ${local.length === 1 ? '1 chain' : `${local.length} chains`} from block 0 into ${databaseFile}…\n`,
  )
  let apiUrl = ''
  try {
    await runNode({
      config,
      chains: local.map((c) => localChainConfig(c)),
      store,
      logger,
      signal: stopping,
      onApi: (api) => {
        apiUrl = api.url
      },
      onProgress: (p) => {
        // Backfill lines until a chain first reaches its head; the status table takes over.
        if (caughtUp.has(p.chainId)) return
        write(`${formatProgress(p, names.get(p.chainId))}\n`)
        if (p.phase !== 'following') return
        caughtUp.add(p.chainId)
        if (caughtUp.size === local.length) onAllCaughtUp()
      },
    })
  } finally {
    controller.abort()
    signal.removeEventListener('abort', onAbort)
    clearInterval(timer)
    await printing
    await Promise.all(trickles)
  }
}

function localChainConfig(chain: LocalChain): ChainConfig {
  return {
    chainId: chain.chainId,
    name: chain.name,
    // The ws endpoint brings newHeads, so a new block is indexed right away.
    rpc: [chain.anvil.rpcUrl, chain.anvil.wsUrl],
    startBlock: 0,
    finalityDepth: 12,
    // anvil answers trace_block about a hundred times faster than debug_traceBlockByHash
    // (~1 s per demo block of ~100 transactions), and both give the same internal transfers.
    traces: 'parity',
    batchSize: 10,
    batchTransactions: 1000,
    fetchConcurrency: 4,
    rpcBatchSize: 50,
    pollIntervalMs: 500,
    expectedChainId: chain.chainId,
    // anvil's funded accounts are its own dev accounts, which the indexer asks it for.
    genesis: undefined,
    unlistedVaults: 'value',
    deniedVaults: [],
    ...worldPricing(chain.world),
    // The demo's dollar, so the stablecoins answer has something to list.
    stablecoins: [chain.world.usd],
    ...worldDefi(chain.world, chain.defi),
  }
}
