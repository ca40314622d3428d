import type { ChainConfig } from '../config/types.ts'
import { createRpcClient, type RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Logger } from '../internal/logger.ts'

/** Read-only node access for request-time reads (one client per EVM chain, made on first use). */
export type ApiRpc = {
  /** The chain's client, or undefined for a chain this instance does not serve. */
  forChain(chainId: number): RpcClient | undefined
  close(): void
}

/**
 * The API's own RPC clients, apart from the indexers': a request never waits behind a
 * backfill's batches, and a slow node fails a request within seconds instead of retrying for
 * a minute. Few calls in flight per chain (`concurrency`), short timeouts, two retries.
 */
export function createApiRpc({
  chains,
  logger,
  concurrency = 4,
  timeoutMs = 8_000,
}: {
  chains: readonly ChainConfig[]
  logger: Logger
  concurrency?: number
  timeoutMs?: number
}): ApiRpc {
  const clients = new Map<number, RpcClient>()
  return {
    forChain(chainId) {
      const existing = clients.get(chainId)
      if (existing) return existing
      const chain = chains.find((c) => c.chainId === chainId)
      if (!chain || chain.rpc.length === 0) return undefined
      const client = createRpcClient({
        urls: chain.rpc,
        batchSize: chain.rpcBatchSize,
        concurrency,
        timeoutMs,
        retryCount: 2,
        maxRetryDelayMs: 1_000,
        logger: logger.child({ chain_id: chainId, component: 'api_rpc' }),
        chainId: chain.expectedChainId,
      })
      clients.set(chainId, client)
      return client
    },
    close() {
      for (const client of clients.values()) client.close()
      clients.clear()
    },
  }
}
