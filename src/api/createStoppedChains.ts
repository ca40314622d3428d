import type { Logger } from '../internal/logger.ts'
import type { Store } from '../store/createStore.ts'
import { readIndexerHolders } from '../store/readIndexerHolders.ts'
import type { NodeHead } from './apiContext.ts'

/** Why each stopped chain's indexer stopped, by chain id. */
export type StoppedChains = () => Promise<ReadonlyMap<number, string>>

/**
 * Which chains' indexers stopped (a reorg deeper than `finalityDepth`), as this process
 * knows it: its own indexers' (in memory) and, on PostgreSQL, what each chain's last lock
 * holder recorded (`indexer_leases.stopped`), so that an API replica indexing nothing knows
 * too. The store is read at most once every `maxAgeMs` (requests share the read); a read that
 * fails keeps the last answer.
 */
export function createStoppedChains({
  store,
  nodeHeads,
  logger,
  maxAgeMs = 2_000,
}: {
  store: Pick<Store, 'db' | 'dialect'>
  nodeHeads: () => NodeHead[]
  logger: Logger
  maxAgeMs?: number
}): StoppedChains {
  let recorded: ReadonlyMap<number, string> = new Map()
  let readAt = Number.NEGATIVE_INFINITY
  let reading: Promise<void> | undefined
  const refresh = async () => {
    try {
      const holders = await readIndexerHolders(store)
      const next = new Map<number, string>()
      for (const [chainId, holder] of holders)
        if (holder.stopped !== null) next.set(chainId, holder.stopped)
      recorded = next
    } catch (error) {
      logger.warn({ err: error }, 'Could not read which chains stopped; using the last answer')
    } finally {
      readAt = Date.now()
      reading = undefined
    }
  }
  return async () => {
    if (store.dialect === 'postgres' && Date.now() - readAt >= maxAgeMs) {
      reading ??= refresh()
      await reading
    }
    const out = new Map(recorded)
    for (const { chainId, stopped } of nodeHeads())
      if (stopped !== undefined) out.set(chainId, stopped)
    return out
  }
}
