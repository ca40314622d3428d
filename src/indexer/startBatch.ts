import { deriveHistory, type HistoryRows } from '../evm/derive/deriveHistory.ts'
import type { Touched } from '../evm/derive/touched.ts'
import type { ChainBlock } from '../evm/fetch/chainBlock.ts'
import { prefetchBatchReads } from '../evm/read/prefetchBatchReads.ts'
import type { ReadyReads } from '../evm/read/readAtBlock.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'

/** A batch with the steps done that need neither the store nor the batches before it. */
export type StartedBatch = {
  blocks: readonly ChainBlock[]
  rows: HistoryRows
  touched: Touched
  /** The bulk of its node reads, under way (`prefetchBatchReads`), unless not read ahead. */
  ready: Promise<ReadyReads> | undefined
}

/**
 * Derives a batch's history and sends the bulk of its node reads. The pipeline starts the
 * next batch while it prepares the current one, so the node answers the next batch's reads
 * while Scry works on the current one, not one after the other.
 * `readAhead: false` (a batch that may end at the head of a node answering reads of its head
 * from the block it mines: `mayEndAtHead`) leaves every read to `prepareBatch`, which looks at
 * the head first.
 */
export function startBatch({
  rpc,
  chainId,
  blocks,
  readAhead,
  signal,
}: {
  rpc: RpcClient
  chainId: number
  blocks: readonly ChainBlock[]
  readAhead: boolean
  signal?: AbortSignal | undefined
}): StartedBatch {
  const last = blocks[blocks.length - 1]
  if (!last) throw new Error('startBatch: no blocks')
  const { rows, touched } = deriveHistory({ chainId, blocks })
  if (!readAhead) return { blocks, rows, touched, ready: undefined }
  const ready = prefetchBatchReads({
    rpc,
    toBlock: last.number,
    toHash: last.hash,
    touched,
    signal,
  })
  ready.catch(() => {}) // awaited by prepareBatch, or dropped with the batch
  return { blocks, rows, touched, ready }
}
