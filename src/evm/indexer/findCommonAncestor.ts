import { toHex } from 'viem'
import { FatalIndexerError } from '../../internal/errors.ts'
import type { Store } from '../../store/createStore.ts'
import type { RpcClient } from '../rpc/createRpcClient.ts'

/**
 * Walks back from `from` until the node's block hash equals the store's: that block is the
 * common ancestor. Gives up (FatalIndexerError) after `maxDepth` blocks: a reorg that deep is
 * past the finality depth and cannot be undone safely.
 */
export async function findCommonAncestor({
  rpc,
  store,
  chainId,
  from,
  maxDepth,
  signal,
}: {
  rpc: RpcClient
  store: Store
  chainId: number
  from: number
  maxDepth: number
  signal: AbortSignal
}): Promise<number> {
  for (let n = from; n >= 0 && n > from - maxDepth; n--) {
    const ours = await store.getBlockHash({ chainId, blockNumber: n })
    // Nothing stored at n: before the start block, so everything from here is reverted.
    if (ours === undefined) return n
    const theirs = await rpc.request<{ hash: string } | null>(
      { method: 'eth_getBlockByNumber', params: [toHex(n), false] },
      { signal },
    )
    if (theirs && theirs.hash.toLowerCase() === ours) return n
  }
  throw new FatalIndexerError(
    `Chain ${chainId}: reorg deeper than ${maxDepth - 1} blocks (the finality depth) below block ${from}.`,
    {
      details:
        'The indexer stopped so it never serves a corrupt state. Raise finalityDepth for this chain and re-index from a block before the reorg.',
    },
  )
}
