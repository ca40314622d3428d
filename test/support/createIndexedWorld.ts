import { buildWorld, type World } from '../../src/dev/buildWorld.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createChainIndexer } from '../../src/evm/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import type { Store } from '../../src/store/createStore.ts'
import { runIndexer, testChainConfig } from './testChain.ts'

export type IndexedWorld = {
  anvil: Anvil
  world: World
  /** Indexes the world into a store (any number of times) and stops. */
  indexInto(store: Store): Promise<void>
  stop(): Promise<void>
}

/** An anvil chain with the demo world on it, ready to index into test stores. */
export async function createIndexedWorld({
  chainId = 1,
  transfers = 2000,
  wallets = 60,
}: {
  chainId?: number
  transfers?: number
  wallets?: number
} = {}): Promise<IndexedWorld> {
  const anvil = await startAnvil({ chainId })
  const world = await buildWorld({ rpcUrl: anvil.rpcUrl, chainId, transfers, wallets })
  return {
    anvil,
    world,
    async indexInto(store) {
      const run = runIndexer({
        indexer: createChainIndexer({
          chain: testChainConfig({ chainId, rpc: [anvil.rpcUrl], batchSize: 50, traces: 'parity' }),
          store,
          logger: silentLogger(),
        }),
        store,
      })
      await run.synced({ block: Number(world.endBlock), timeoutMs: 120_000 })
      await run.stop()
    },
    stop: () => anvil.stop(),
  }
}
