import type { ChainConfig } from '../../src/config/types.ts'
import { buildWorld, type World } from '../../src/dev/buildWorld.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { worldDefi } from '../../src/dev/worldDefi.ts'
import { worldPricing } from '../../src/dev/worldPricing.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import type { Store } from '../../src/store/createStore.ts'
import { runIndexer, testChainConfig } from './testChain.ts'

export type IndexedWorld = {
  anvil: Anvil
  world: World
  /** The chain as the indexer sees it (with the world's pricing when `priced`). */
  chain: ChainConfig
  /** Indexes the world into a store (any number of times) and stops. */
  indexInto(store: Store): Promise<void>
  stop(): Promise<void>
}

/** An anvil chain with the demo world on it, ready to index into test stores. */
export async function createIndexedWorld({
  chainId = 1,
  transfers = 2000,
  wallets = 60,
  priced = false,
  batchSize = 50,
  laterHours = 0,
}: {
  chainId?: number
  transfers?: number
  wallets?: number
  /** Index with the world's dollar, WETH and Uniswap factories, so that tokens have prices. */
  priced?: boolean
  /** Blocks per indexing batch (small: several batches kept for undo). */
  batchSize?: number
  /**
   * Hours between the world and one last (empty) block, the chain's head: `historical_prices`
   * then have past points to answer with (a world is built in seconds). Default 0: none.
   */
  laterHours?: number
} = {}): Promise<IndexedWorld> {
  const anvil = await startAnvil({ chainId })
  const built = await buildWorld({ rpcUrl: anvil.rpcUrl, chainId, transfers, wallets })
  const world = laterHours > 0 ? { ...built, endBlock: await mineLater(anvil, laterHours) } : built
  const chain = testChainConfig({
    chainId,
    rpc: [anvil.rpcUrl],
    batchSize,
    traces: 'parity',
    ...(priced ? { ...worldPricing(world), ...worldDefi(world) } : {}),
  })
  return {
    anvil,
    world,
    chain,
    async indexInto(store) {
      const run = runIndexer({
        indexer: createChainIndexer({ chain, store, logger: silentLogger() }),
        store,
      })
      await run.synced({ block: Number(world.endBlock), timeoutMs: 120_000 })
      await run.stop()
    },
    stop: () => anvil.stop(),
  }
}

/** Moves the node's clock `hours` ahead and mines one block; its number. */
async function mineLater(anvil: Anvil, hours: number): Promise<bigint> {
  const call = async (method: string, params: unknown[]) => {
    const res = await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    return ((await res.json()) as { result: unknown }).result
  }
  await call('evm_increaseTime', [hours * 3600])
  await call('evm_mine', [])
  return BigInt((await call('eth_blockNumber', [])) as string)
}
