import type { ChainConfig } from '../../src/config/types.ts'
import type { Hex } from '../../src/evm/types.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { createTestApi, type TestApi } from './createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from './createTestStore.ts'
import { runIndexer } from './testChain.ts'

export type IndexedSide = { store: TestStore; api: TestApi; run: ReturnType<typeof runIndexer> }

/** One fresh store per dialect, each with the real indexer running on `chain` and an API. */
export async function startIndexedSides(
  chain: ChainConfig,
): Promise<{ dialect: string; side: IndexedSide }[]> {
  const sides: { dialect: string; side: IndexedSide }[] = []
  for (const dialect of DIALECTS) {
    const store = await createTestStore(dialect)
    const run = runIndexer({
      indexer: createChainIndexer({ chain, store: store.store, logger: silentLogger() }),
      store: store.store,
    })
    const api = await createTestApi({ store: store.store, chains: [chain] })
    sides.push({ dialect, side: { store, api, run } })
  }
  return sides
}

/**
 * Waits until every side has indexed the node's latest block, that very block (by hash), so a
 * reorg the test just made is indexed too.
 */
export async function syncIndexedSides(
  sides: readonly { side: IndexedSide }[],
  pub: { getBlock(args: { blockTag: 'latest' }): Promise<{ number: bigint; hash: Hex }> },
): Promise<void> {
  const head = await pub.getBlock({ blockTag: 'latest' })
  for (const { side } of sides)
    await side.run.synced({ block: Number(head.number), hash: head.hash, timeoutMs: 120_000 })
}

/** Stops the indexers, closes the APIs and drops the stores. */
export async function stopIndexedSides(sides: readonly { side: IndexedSide }[]): Promise<void> {
  for (const { side } of sides) {
    await side.run.stop().catch(() => undefined)
    await side.api.close()
    await side.store.drop()
  }
}
