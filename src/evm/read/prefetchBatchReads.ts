import type { Touched } from '../derive/touched.ts'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import type { Hex } from '../types.ts'
import { balanceOfCall, totalSupplyCall } from './batchStateCalls.ts'
import { callKey, type ReadyReads, readAtBlock } from './readAtBlock.ts'

/**
 * The bulk of a batch's node reads, which need nothing from the store: at its last block (by
 * hash), the balance of every (token, holder) pair its ERC20 transfers touched, each such
 * token's supply and the native balance of every touched address. The pipeline starts them
 * as soon as the batch's blocks are derived (`startBatch`; not for a batch that may end at the
 * head of a node that answers reads of its head from the block it mines), so that the node
 * answers them while the batches before are still being prepared; `readBatchState` takes them
 * as `ready` and asks only the rest (new tokens' metadata, rebasing tokens' holders,
 * allowances, pools). The list is taken from `touched` before the first await: later
 * additions (the first batch's genesis addresses) are not prefetched.
 */
export async function prefetchBatchReads({
  rpc,
  toBlock,
  toHash,
  touched,
  signal,
}: {
  rpc: RpcClient
  toBlock: bigint
  toHash: Hex
  touched: Touched
  signal?: AbortSignal | undefined
}): Promise<ReadyReads> {
  const calls = [...touched.erc20].flatMap(([token, holders]) => [
    totalSupplyCall(token),
    ...[...holders.keys()].map((holder) => balanceOfCall(token, holder)),
  ])
  const native = [...touched.native]
  const read = await readAtBlock({
    rpc,
    blockNumber: toBlock,
    blockHash: toHash,
    calls,
    native,
    signal,
  })
  return {
    blockHash: toHash,
    calls: new Map(calls.map((call, i) => [callKey(call), read.results[i]])),
    native: read.native,
  }
}
