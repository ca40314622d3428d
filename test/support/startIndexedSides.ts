import type { ChainConfig } from '../../src/config/types.ts'
import type { Hex } from '../../src/evm/types.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { createTestApi, type TestApi } from './createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from './createTestStore.ts'
import { runIndexer } from './testChain.ts'

type IndexerRun = ReturnType<typeof runIndexer>

export type IndexedSide = {
  store: TestStore
  api: TestApi
  /** The first chain's indexer. */
  run: IndexerRun
  /** Every chain's indexer, by chain id. */
  runs: ReadonlyMap<number, IndexerRun>
}

/**
 * One fresh store per dialect, each with the real indexer running on every chain given (one
 * or several) and an API serving them all.
 */
export async function startIndexedSides(
  chains: ChainConfig | readonly ChainConfig[],
): Promise<{ dialect: string; side: IndexedSide }[]> {
  const list = Array.isArray(chains) ? chains : [chains as ChainConfig]
  const sides: { dialect: string; side: IndexedSide }[] = []
  for (const dialect of DIALECTS) {
    const store = await createTestStore(dialect)
    const runs = new Map(
      list.map((chain) => [
        chain.chainId,
        runIndexer({
          indexer: createChainIndexer({ chain, store: store.store, logger: silentLogger() }),
          store: store.store,
        }),
      ]),
    )
    const api = await createTestApi({ store: store.store, chains: list })
    sides.push({ dialect, side: { store, api, run: runs.get(list[0]!.chainId)!, runs } })
  }
  return sides
}

/**
 * Waits until every side has indexed the node's latest block, that very block (by hash), so a
 * reorg the test just made is indexed too: on the first chain, or on `chainId`'s.
 */
export async function syncIndexedSides(
  sides: readonly { side: IndexedSide }[],
  pub: { getBlock(args: { blockTag: 'latest' }): Promise<{ number: bigint; hash: Hex }> },
  chainId?: number,
): Promise<void> {
  const head = await pub.getBlock({ blockTag: 'latest' })
  for (const { side } of sides) {
    const run = chainId === undefined ? side.run : side.runs.get(chainId)!
    await run.synced({ block: Number(head.number), hash: head.hash, timeoutMs: 120_000 })
  }
}

/** Stops the indexers, closes the APIs and drops the stores. */
export async function stopIndexedSides(sides: readonly { side: IndexedSide }[]): Promise<void> {
  for (const { side } of sides) {
    for (const run of side.runs.values()) await run.stop().catch(() => undefined)
    await side.api.close()
    await side.store.drop()
  }
}
