import type { ChainConfig } from '../config/types.ts'
import { type ChainIndexer, createChainIndexer } from '../indexer/createChainIndexer.ts'
import type { Progress } from '../indexer/createProgress.ts'
import { type ChainLease, holdChainLease } from '../indexer/holdChainLease.ts'
import { BaseError, FatalIndexerError } from '../internal/errors.ts'
import type { Logger } from '../internal/logger.ts'
import type { Store } from '../store/createStore.ts'

/**
 * Runs one indexer per chain until the signal aborts. A chain that fails at start (bad node,
 * wrong chain id, unreachable RPC) fails the whole call: the operator must fix the config. A
 * chain that stops later (a reorg past finality) is logged and stops alone; the call rejects
 * once every chain has stopped.
 * On PostgreSQL (`leaseUrl`) a chain is indexed only while this process holds its lock
 * (`holdChainLease`): other processes indexing the same chain stand by, and whichever holds
 * the lock writes; a process that loses it stops writing and stands by again.
 */
export async function runIndexers({
  chains,
  store,
  logger,
  signal,
  leaseUrl,
  takeoverAfterSeconds,
  onProgress,
  onStarted,
  onStopped,
}: {
  chains: readonly ChainConfig[]
  store: Store
  logger: Logger
  signal: AbortSignal
  /** PostgreSQL URL for the chains' locks (a connection of its own per chain held). */
  leaseUrl?: string
  /** A holder without a heartbeat this long is cut off by a standby (`holdChainLease`). */
  takeoverAfterSeconds?: number
  onProgress?: (progress: Progress) => void
  onStarted?: (indexers: ChainIndexer[]) => void
  /** A chain's indexer stopped for good (the others go on): why, in a sentence or two. */
  onStopped?: (chainId: number, why: string, error: unknown) => void
}): Promise<void> {
  const leases = new Map<number, ChainLease>()
  const indexers = chains.map((chain) =>
    createChainIndexer({
      chain,
      store,
      logger,
      ...(onProgress ? { onProgress } : {}),
      ...(leaseUrl
        ? {
            fence: (trx) => {
              const lease = leases.get(chain.chainId)
              if (!lease) throw new Error(`chain ${chain.chainId}: write without its lock`)
              return lease.fence(trx)
            },
          }
        : {}),
    }),
  )
  onStarted?.(indexers)

  async function run(indexer: ChainIndexer): Promise<void> {
    if (!leaseUrl) return indexer.run(signal)
    const log = logger.child({ chain_id: indexer.chainId })
    while (!signal.aborted) {
      const lease = await holdChainLease({
        url: leaseUrl,
        store,
        chainId: indexer.chainId,
        logger: log,
        signal,
        nodeHead: indexer.nodeHead,
        ...(takeoverAfterSeconds ? { takeoverAfterSeconds } : {}),
      }).catch((error: unknown) => {
        if (signal.aborted) return undefined
        throw error
      })
      if (!lease) return
      leases.set(indexer.chainId, lease)
      try {
        await indexer.run(AbortSignal.any([signal, lease.lost]))
      } catch (error) {
        // Past finality: the next holder would stop too. Say so to the processes that do not
        // index the chain (API replicas) before letting go.
        if (error instanceof FatalIndexerError && !lease.lost.aborted) {
          await lease.recordStop(describeStop(error)).catch((cause: unknown) => {
            log.warn({ err: cause }, 'Could not record why the indexer stopped')
          })
        }
        throw error
      } finally {
        leases.delete(indexer.chainId)
        await lease.release()
      }
    }
  }

  const failures: unknown[] = []
  await Promise.all(
    indexers.map(async (indexer) => {
      try {
        await run(indexer)
      } catch (error) {
        if (signal.aborted) return
        failures.push(error)
        onStopped?.(indexer.chainId, describeStop(error), error)
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

/** Why an indexer stopped, as `/ready`, `/v1/status` and `CHAIN_STOPPED` say it. */
function describeStop(error: unknown): string {
  return error instanceof BaseError
    ? [error.shortMessage, error.details].filter(Boolean).join(' ')
    : 'It failed; the log says why.'
}
