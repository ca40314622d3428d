import type { ChainConfig } from '../../config/types.ts'
import { loadBatchPrices } from '../../prices/loadBatchPrices.ts'
import { updatePrices } from '../../prices/updatePrices.ts'
import { activityTokens, valueActivity } from '../../prices/valueActivity.ts'
import type { BatchWrite } from '../../store/applyBatch.ts'
import type { Store } from '../../store/createStore.ts'
import { collectWebhookEvents } from '../../webhooks/collectWebhookEvents.ts'
import { deriveHistory } from '../derive/deriveHistory.ts'
import { deriveState } from '../derive/deriveState.ts'
import type { ChainBlock } from '../fetch/chainBlock.ts'
import { readBatchState } from '../read/readBatchState.ts'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import type { Address } from '../types.ts'

/** What a batch needs to know about its chain's prices. */
export type BatchPricing = Pick<
  ChainConfig,
  'usdc' | 'wrappedNative' | 'dexFactories' | 'minPoolLiquidityUsd'
>

export type BatchResult = { blocks: number; transfers: number; transactions: number }

/**
 * Decode → derive → read state → pools and prices → webhook events → commit, for consecutive
 * blocks. The store commits the whole batch (state, prices, outbox) and the checkpoint in one
 * transaction, so a crash leaves it at a batch boundary.
 */
export async function processBatch({
  rpc,
  store,
  chainId,
  pricing,
  blocks,
  keepUndo,
  signal,
}: {
  rpc: RpcClient
  store: Store
  chainId: number
  pricing: BatchPricing
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
  const decimals = new Map<Address, number>()
  for (const [address, t] of loaded.tokens)
    if (t.decimals !== null) decimals.set(address, t.decimals)
  for (const [address, t] of reads.newTokens)
    if (t.decimals !== undefined) decimals.set(address, t.decimals)
  const prices = await updatePrices({
    rpc,
    store,
    chain: { chainId, ...pricing },
    blockNumber: last.number,
    blockTime: last.timestamp,
    touched: touched.pools,
    created: touched.poolCreations,
    batchDecimals: decimals,
    ...(signal ? { signal } : {}),
  })
  const priceOf = await loadBatchPrices({
    store,
    chainId,
    recomputed: prices.prices,
    tokens: [...activityTokens(rows.activity), ...touched.erc20.keys()],
    wrappedNative: pricing.wrappedNative,
  })
  valueActivity({ chainId, rows: rows.activity, priceOf, decimals })
  // Outbox rows for subscribed addresses, committed with the batch (webhooks).
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
    prices: priceOf,
    ...(signal ? { signal } : {}),
  })
  const batch: BatchWrite = {
    chainId,
    fromBlock: Number(first.number),
    toBlock: Number(last.number),
    toHash: last.hash,
    keepUndo,
    ...rows,
    state: [...state, ...prices.changes],
    outbox,
  }
  await store.applyBatch(batch)
  return {
    blocks: blocks.length,
    transfers: rows.transfers.length,
    transactions: rows.transactions.length,
  }
}
