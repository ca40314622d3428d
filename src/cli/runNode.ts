import { createMeter } from '../accounts/createMeter.ts'
import { type RunningApi, startApiServer } from '../api/startApiServer.ts'
import type { ChainConfig, ScryConfig } from '../config/types.ts'
import type { ChainIndexer } from '../indexer/createChainIndexer.ts'
import type { Progress } from '../indexer/createProgress.ts'
import { FatalIndexerError, NonRetryableError } from '../internal/errors.ts'
import type { Logger } from '../internal/logger.ts'
import { createNftMetadataWorker } from '../nft/createNftMetadataWorker.ts'
import type { Store } from '../store/createStore.ts'
import { createDeliveryWorker } from '../webhooks/createDeliveryWorker.ts'
import { ROLES, type Role } from './parseRoles.ts'
import { runIndexers } from './runIndexers.ts'

/**
 * One Scry process: the API, an indexer per chain with the NFT metadata worker, and the webhook
 * delivery worker (each a role; default all), until `signal` aborts (or every indexer has
 * stopped). Used by `scry start` and `scry dev`.
 */
export async function runNode({
  config,
  chains,
  store,
  logger,
  signal,
  onProgress,
  onApi,
  roles = new Set(ROLES),
  indexChains = chains,
}: {
  config: ScryConfig
  chains: readonly ChainConfig[]
  store: Store
  logger: Logger
  signal: AbortSignal
  onProgress?: (progress: Progress) => void
  /** Called once the API listens. */
  onApi?: (api: RunningApi) => void
  /** Default: api, indexer and webhooks. */
  roles?: ReadonlySet<Role>
  /** The chains this process indexes (`--chains`; default all); the API serves all. */
  indexChains?: readonly ChainConfig[]
}): Promise<void> {
  let indexers: ChainIndexer[] = []
  /** Why a chain's indexer stopped (`/ready` and `/v1/status` say it). */
  const stopped = new Map<number, string>()
  const api = roles.has('api')
    ? await startApiServer({
        config,
        store,
        logger,
        chains,
        nodeHeads: () =>
          indexers.map((i) => {
            const why = stopped.get(i.chainId)
            return { chainId: i.chainId, nodeHead: i.nodeHead(), ...(why ? { stopped: why } : {}) }
          }),
      })
    : undefined
  if (api) onApi?.(api)
  // Background work stops with the indexers too, not only on the caller's signal.
  const stop = new AbortController()
  const onAbort = () => stop.abort(signal.reason)
  signal.addEventListener('abort', onAbort, { once: true })
  const meter = createMeter({ store })
  const delivering = roles.has('webhooks')
    ? createDeliveryWorker({
        store,
        meter,
        logger: logger.child({ component: 'webhooks' }),
        allowHttp: config.webhooks.allowHttp,
        allowPrivate: config.webhooks.allowPrivateAddresses,
        concurrency: config.webhooks.concurrency,
      })
        .run(stop.signal)
        .catch((error: unknown) => {
          if (!stop.signal.aborted) logger.error({ err: error }, 'Webhook worker stopped')
        })
    : Promise.resolve()
  const worker = createNftMetadataWorker({
    store,
    logger: logger.child({ component: 'nft_metadata' }),
    ipfsGateway: config.nft.ipfsGateway,
    allowPrivate: config.nft.allowPrivateFetch,
    rpcFor: (chainId) => {
      const indexer = indexers.find((i) => i.chainId === chainId)
      if (!indexer) throw new NonRetryableError(`Chain ${chainId} is not indexed here.`)
      return indexer.rpc
    },
  })
  const working = roles.has('indexer')
    ? worker.run(stop.signal).catch((error: unknown) => {
        if (!stop.signal.aborted) logger.error({ err: error }, 'NFT metadata worker stopped')
      })
    : Promise.resolve()
  try {
    // Without EVM chains to index (SVM only) or without the indexer role: serve until stopped.
    if (roles.has('indexer') && indexChains.length > 0) {
      try {
        await runIndexers({
          chains: indexChains,
          store,
          logger,
          signal,
          // PostgreSQL: one writer per chain across processes (standby indexers).
          ...(store.dialect === 'postgres'
            ? {
                leaseUrl: config.database,
                takeoverAfterSeconds: config.indexer.standbyTakeoverSeconds,
              }
            : {}),
          ...(onProgress ? { onProgress } : {}),
          onStarted: (list) => {
            indexers = list
          },
          onStopped: (chainId, why) => {
            stopped.set(chainId, why)
          },
        })
      } catch (error) {
        // Every chain stopped after it began (a reorg deeper than finality): the API keeps
        // serving what is indexed, with `/ready` 503 and `/v1/status` saying why, until the
        // process is stopped. Failures at start (config, node) still end the process.
        if (!api || !(error instanceof FatalIndexerError) || signal.aborted) throw error
        logger.error(
          "Every chain's indexer in this process has stopped; the API goes on serving what is indexed (/ready is 503) until the process is stopped. docs/indexer.md says how to recover (scry reset-chain).",
        )
        await untilAborted(signal)
      }
    } else {
      await untilAborted(signal)
    }
  } finally {
    stop.abort()
    signal.removeEventListener('abort', onAbort)
    await working
    await delivering
    await meter.close()
    await api?.close()
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), { once: true })
  })
}
