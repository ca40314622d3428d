import { toHex } from 'viem'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import { FatalIndexerError } from '../internal/errors.ts'
import type { Store } from '../store/createStore.ts'

/** Heights compared per round trip: most reorgs are shallower, the deepest take a few. */
const STEP = 16

/**
 * Walks back from `from` until the node's block hash equals the store's: that block is the
 * common ancestor. Compares `STEP` heights per round (one store query, one JSON-RPC batch),
 * so a deep reorg is found in a few round trips and the old branch is served for as short a
 * time as possible. Gives up (FatalIndexerError) after `maxDepth` blocks: a reorg that deep is
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
  const lowest = Math.max(0, from - maxDepth + 1)
  for (let hi = from; hi >= lowest; hi -= STEP) {
    const lo = Math.max(lowest, hi - STEP + 1)
    const ours = await store.getBlockHashes({ chainId, from: lo, to: hi })
    const heights: number[] = []
    for (let n = hi; n >= lo; n--) heights.push(n)
    const theirs = await rpc.batch<{ hash: string } | null>(
      heights.map((n) => ({ method: 'eth_getBlockByNumber', params: [toHex(n), false] })),
      { signal },
    )
    for (const [i, n] of heights.entries()) {
      const hash = ours.get(n)
      // Nothing stored at n: before the start block, so everything from here is reverted.
      if (hash === undefined) return n
      const result = theirs[i]
      if (result?.ok && result.result && result.result.hash.toLowerCase() === hash) return n
    }
  }
  throw new FatalIndexerError(
    `Chain ${chainId}: reorg deeper than ${maxDepth - 1} blocks (the finality depth) below block ${from}.`,
    {
      details:
        "The indexer stopped so it never serves a corrupt state. Raise finalityDepth for this chain, stop Scry, delete the chain's data with `scry reset-chain <chainId> --yes` and start again: it is indexed anew.",
    },
  )
}
