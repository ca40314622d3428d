import type { ChainConfig } from '../config/types.ts'
import { type ChainIndexer, createChainIndexer } from '../indexer/createChainIndexer.ts'
import type { Progress } from '../indexer/createProgress.ts'
import { BaseError } from '../internal/errors.ts'
import type { Logger } from '../internal/logger.ts'
import type { Store } from '../store/createStore.ts'

/**
 * Runs one indexer per chain until the signal aborts. A chain that fails at start (bad node,
 * wrong chain id, unreachable RPC) fails the whole call: the operator must fix the config. A
 * chain that stops later (a reorg past finality) is logged and stops alone; the call rejects
 * once every chain has stopped.
 */
export async function runIndexers({
  chains,
  store,
  logger,
  signal,
  onProgress,
  onStarted,
}: {
  chains: readonly ChainConfig[]
  store: Store
  logger: Logger
  signal: AbortSignal
  onProgress?: (progress: Progress) => void
  onStarted?: (indexers: ChainIndexer[]) => void
}): Promise<void> {
  const indexers = chains.map((chain) =>
    createChainIndexer({ chain, store, logger, ...(onProgress ? { onProgress } : {}) }),
  )
  onStarted?.(indexers)
  const failures: unknown[] = []
  await Promise.all(
    indexers.map(async (indexer) => {
      try {
        await indexer.run(signal)
      } catch (error) {
        if (signal.aborted) return
        failures.push(error)
        logger.error(
          { chain_id: indexer.chainId, err: error },
          error instanceof BaseError ? error.shortMessage : 'Indexer stopped',
        )
      } finally {
        indexer.rpc.close()
      }
    }),
  )
  if (failures.length > 0 && !signal.aborted) throw failures[0]
}
