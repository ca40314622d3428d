import { type RunningApi, startApiServer } from '../api/startApiServer.ts'
import type { ChainConfig, ScryConfig } from '../config/types.ts'
import type { ChainIndexer } from '../evm/indexer/createChainIndexer.ts'
import type { Progress } from '../evm/indexer/createProgress.ts'
import { NonRetryableError } from '../internal/errors.ts'
import type { Logger } from '../internal/logger.ts'
import { createNftMetadataWorker } from '../nft/createNftMetadataWorker.ts'
import type { Store } from '../store/createStore.ts'
import { runIndexers } from './runIndexers.ts'

/**
 * One Scry process: the API, an indexer per chain and the NFT metadata worker, until `signal`
 * aborts (or every indexer has stopped). Used by `scry start` and `scry dev`.
 */
export async function runNode({
  config,
  chains,
  store,
  logger,
  signal,
  onProgress,
  onApi,
}: {
  config: ScryConfig
  chains: readonly ChainConfig[]
  store: Store
  logger: Logger
  signal: AbortSignal
  onProgress?: (progress: Progress) => void
  /** Called once the API listens. */
  onApi?: (api: RunningApi) => void
}): Promise<void> {
  let indexers: ChainIndexer[] = []
  const api = await startApiServer({
    config,
    store,
    logger,
    chains,
    nodeHeads: () => indexers.map((i) => ({ chainId: i.chainId, nodeHead: i.nodeHead() })),
  })
  onApi?.(api)
  // Background work stops with the indexers too, not only on the caller's signal.
  const stop = new AbortController()
  const onAbort = () => stop.abort(signal.reason)
  signal.addEventListener('abort', onAbort, { once: true })
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
  const working = worker.run(stop.signal).catch((error: unknown) => {
    if (!stop.signal.aborted) logger.error({ err: error }, 'NFT metadata worker stopped')
  })
  try {
    await runIndexers({
      chains,
      store,
      logger,
      signal,
      ...(onProgress ? { onProgress } : {}),
      onStarted: (list) => {
        indexers = list
      },
    })
    // SVM chains only (issue 6): nothing to index, serve until stopped.
    if (chains.length === 0 && !signal.aborted) {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
    }
  } finally {
    stop.abort()
    signal.removeEventListener('abort', onAbort)
    await working
    await api.close()
  }
}
