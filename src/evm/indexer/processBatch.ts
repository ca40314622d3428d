import type { BatchWrite } from '../../store/applyBatch.ts'
import type { Store } from '../../store/createStore.ts'
import { collectWebhookEvents } from '../../webhooks/collectWebhookEvents.ts'
import { deriveHistory } from '../derive/deriveHistory.ts'
import { deriveState } from '../derive/deriveState.ts'
import type { ChainBlock } from '../fetch/chainBlock.ts'
import { readBatchState } from '../read/readBatchState.ts'
import type { RpcClient } from '../rpc/createRpcClient.ts'

export type BatchResult = { blocks: number; transfers: number; transactions: number }

/**
 * Decode → derive → read state → commit, for consecutive blocks. The store commits the whole
 * batch and the checkpoint in one transaction, so a crash leaves it at a batch boundary.
 */
export async function processBatch({
  rpc,
  store,
  chainId,
  blocks,
  keepUndo,
  signal,
}: {
  rpc: RpcClient
  store: Store
  chainId: number
  blocks: readonly ChainBlock[]
  keepUndo: boolean
  signal?: AbortSignal
}): Promise<BatchResult> {
  const first = blocks[0]
  const last = blocks[blocks.length - 1]
  if (!first || !last) return { blocks: 0, transfers: 0, transactions: 0 }
  const { rows, touched } = deriveHistory({ chainId, blocks })
  const { loaded, reads } = await readBatchState({
    rpc,
    store,
    chainId,
    fromBlock: first.number,
    toBlock: last.number,
    touched,
    ...(signal ? { signal } : {}),
  })
  const state = deriveState({
    chainId,
    fromBlock: Number(first.number),
    toBlock: Number(last.number),
    touched,
    loaded,
    reads,
  })
  // --- webhooks (issue 5): outbox rows for subscribed addresses, committed with the batch ---
  const outbox = await collectWebhookEvents({
    rpc,
    store,
    chainId,
    rows,
    state,
    loaded,
    reads,
    fromBlock: Number(first.number),
    toBlock: Number(last.number),
    ...(signal ? { signal } : {}),
  })
  // --- end webhooks ---
  const batch: BatchWrite = {
    chainId,
    fromBlock: Number(first.number),
    toBlock: Number(last.number),
    toHash: last.hash,
    keepUndo,
    ...rows,
    state,
    outbox,
  }
  await store.applyBatch(batch)
  return {
    blocks: blocks.length,
    transfers: rows.transfers.length,
    transactions: rows.transactions.length,
  }
}
