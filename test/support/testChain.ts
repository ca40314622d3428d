import { CHAIN_CATALOGUE } from '../../src/chains/catalogue.ts'
import type { ChainConfig } from '../../src/config/types.ts'
import type { ChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import type { Store } from '../../src/store/createStore.ts'

/** A chain config for tests: small batches so that several batches and windows are exercised. */
export function testChainConfig({
  chainId,
  rpc,
  ...overrides
}: { chainId: number; rpc: string[] } & Partial<ChainConfig>): ChainConfig {
  return {
    chainId,
    // As resolveConfig names it: the catalogue's name (the API's and webhooks' `chain`).
    name: CHAIN_CATALOGUE.find((c) => c.chainId === chainId)?.name ?? `chain_${chainId}`,
    rpc,
    startBlock: 0,
    finalityDepth: 16,
    traces: 'auto',
    batchSize: 20,
    batchTransactions: 1000,
    fetchConcurrency: 3,
    rpcBatchSize: 50,
    pollIntervalMs: 100,
    expectedChainId: chainId,
    usdc: [],
    wrappedNative: null,
    dexFactories: [],
    minPoolLiquidityUsd: 1000,
    genesis: undefined,
    unlistedVaults: 'value',
    deniedVaults: [],
    stablecoins: [],
    ...overrides,
  }
}

/**
 * Runs an indexer in the background. `synced(block)` resolves once the store's checkpoint
 * reaches `block` with that block's hash; `stop()` aborts it and surfaces its error if any.
 */
export function runIndexer({ indexer, store }: { indexer: ChainIndexer; store: Store }) {
  const controller = new AbortController()
  let failure: unknown
  const done = indexer.run(controller.signal).catch((error) => {
    failure = error
  })
  return {
    async synced({
      block,
      hash,
      timeoutMs = 60_000,
    }: {
      block: number
      hash?: string
      timeoutMs?: number
    }) {
      const until = Date.now() + timeoutMs
      while (Date.now() < until) {
        if (failure) throw failure
        const cp = await store.getCheckpoint(indexer.chainId)
        if (cp && cp.blockNumber === block && (hash === undefined || cp.blockHash === hash)) return
        await new Promise((r) => setTimeout(r, 50))
      }
      throw new Error(`indexer did not reach block ${block} in ${timeoutMs} ms`)
    },
    /** Resolves with the error that stopped the indexer. */
    async failed(timeoutMs = 30_000): Promise<unknown> {
      await Promise.race([done, new Promise((r) => setTimeout(r, timeoutMs))])
      return failure
    },
    async stop() {
      controller.abort()
      await done
      if (failure) throw failure
    },
  }
}
