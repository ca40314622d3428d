import { DEFI_PROBE_CALLS } from '../defi/probeDefiTokens.ts'
import { probeNewTokens } from '../defi/probeNewTokens.ts'
import { planApprovalChanges } from '../evm/approvals/planApprovalChanges.ts'
import { deriveState } from '../evm/derive/deriveState.ts'
import { fillApprovalAssetTypes } from '../evm/derive/fillApprovalAssetTypes.ts'
import { readBatchState } from '../evm/read/readBatchState.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address } from '../evm/types.ts'
import type { PriceGraph, PriceGraphChain } from '../prices/createPriceGraph.ts'
import { planPriceUpdates } from '../prices/planPriceUpdates.ts'
import { valueActivity } from '../prices/valueActivity.ts'
import type { BatchWrite } from '../store/applyBatch.ts'
import type { StateReader, Store } from '../store/createStore.ts'
import { collectWebhookEvents } from '../webhooks/collectWebhookEvents.ts'
import type { StartedBatch } from './startBatch.ts'

export type PreparedBatch =
  | { type: 'prepared'; write: BatchWrite; transfers: number; transactions: number }
  /** A node with live head state mined past the batch while it read: nothing to write. */
  | { type: 'unsettled' }

/**
 * Whether a batch ending at `toBlock` may end at the head of a node that answers reads of its
 * head from the block it is mining (`liveHeadState`): such a batch reads only after it has
 * looked at the head, never ahead (`startBatch`).
 */
export function mayEndAtHead({
  toBlock,
  liveHeadState,
  knownHead,
}: {
  toBlock: number
  liveHeadState: boolean
  knownHead: number | undefined
}): boolean {
  return liveHeadState && (knownHead === undefined || toBlock >= knownHead)
}

/**
 * Everything a batch of consecutive blocks will write, short of writing it: (decode → derive,
 * and the bulk of its node reads sent: `startBatch`) → read state → pools and prices → USD
 * values → webhook events. `state` is the store as it will be once the batches before this one
 * are committed, and `graph` the chain's prices after them, so the pipeline can prepare a
 * batch while the previous one is still written.
 * State is read from the node at the last block by its hash (EIP-1898: never another
 * branch's state at that height). Whether that block is still the node's is checked after
 * every read, right before the batch is written (`runPipeline`): reads made while the node
 * moved to another branch are never stored beside this branch's blocks.
 * `seedNative`: addresses whose native balance is read even though no block touched them
 * (genesis allocations, in the chain's first batch).
 * `liveHeadState` (`FetchCapabilities`): the node may answer reads of its head block from the
 * next block it is mining, so a batch that ends at the head and sees the head move while it
 * reads writes nothing (`unsettled`): the indexer starts again from its checkpoint, and the
 * block is no longer the head then. `knownHead`: the node's head when the range was chosen; a
 * batch ending below it is not at the head, and the node is not asked.
 * The reads at the last block that `startBatch` did not make (new tokens, allowances, pools)
 * go in the same calls.
 */
export async function prepareBatch({
  rpc,
  store,
  state,
  graph,
  chain,
  batch,
  keepUndo,
  seedNative = [],
  liveHeadState = false,
  knownHead,
  signal,
}: {
  rpc: RpcClient
  /** For webhook subscriptions (not state). */
  store: Store
  state: StateReader
  graph: PriceGraph
  /** `name`: the catalogue's, as the API and webhook items name the chain. */
  chain: PriceGraphChain & { name: string }
  batch: StartedBatch
  keepUndo: boolean
  seedNative?: readonly Address[]
  liveHeadState?: boolean
  knownHead?: number
  signal?: AbortSignal
}): Promise<PreparedBatch> {
  const { chainId } = chain
  const { blocks, rows, touched } = batch
  const first = blocks[0]
  const last = blocks[blocks.length - 1]
  if (!first || !last) throw new Error('prepareBatch: no blocks')
  const fromBlock = Number(first.number)
  const toBlock = Number(last.number)
  const sig = signal ? { signal } : {}
  const headNumber = async () =>
    Number(BigInt(await rpc.request<string>({ method: 'eth_blockNumber' }, sig)))
  const atHead =
    mayEndAtHead({ toBlock, liveHeadState, knownHead }) && (await headNumber()) <= toBlock
  for (const address of seedNative) touched.native.add(address)
  // The allowances and the known pools' states are read with what `startBatch` left of the
  // batch's state, in one read of its last block (as few `eth_call`s as they fit: the node
  // pays for each).
  const [approvalPlan, pricePlan] = await Promise.all([
    planApprovalChanges({ state, chainId, blocks }),
    planPriceUpdates({ state, chain, touched: touched.pools, created: touched.poolCreations }),
  ])
  const { loaded, reads, alongside } = await readBatchState({
    rpc,
    state,
    chainId,
    fromBlock: first.number,
    toBlock: last.number,
    toHash: last.hash,
    parentHash: first.parentHash,
    touched,
    alongside: [...approvalPlan.calls, ...pricePlan.calls],
    newTokenCalls: DEFI_PROBE_CALLS,
    ready: batch.ready,
    ...sig,
  })
  const approvals = approvalPlan.finish(alongside.slice(0, approvalPlan.calls.length))
  fillApprovalAssetTypes(
    rows.activity,
    (token) => loaded.tokens.get(token)?.standard ?? touched.standards.get(token),
  )
  const changes = deriveState({ chainId, fromBlock, toBlock, touched, loaded, reads })
  const decimals = new Map<Address, number>()
  for (const [address, t] of loaded.tokens)
    if (t.decimals !== null) decimals.set(address, t.decimals)
  for (const [address, t] of reads.newTokens)
    if (t.decimals !== undefined) decimals.set(address, t.decimals)
  // New tokens that answered the DeFi probe's first round with addresses get its second.
  changes.push(
    ...(await probeNewTokens({
      rpc,
      chainId,
      blockNumber: last.number,
      blockHash: last.hash,
      newTokens: reads.newTokens,
      signal,
    })),
  )
  // Not beside the probe: the price plan moves the graph, and a failure of the batch makes the
  // caller reload it, which must never happen while a plan is still moving it.
  const priceChanges = await pricePlan.finish({
    rpc,
    graph,
    blockNumber: last.number,
    blockHash: last.hash,
    blockTime: last.timestamp,
    results: alongside.slice(approvalPlan.calls.length),
    batchDecimals: decimals,
    signal,
  })
  valueActivity({ chainId, rows: rows.activity, priceOf: graph.priceOf, decimals })
  // Outbox rows for subscribed addresses, committed with the batch (webhooks).
  const outbox = await collectWebhookEvents({
    rpc,
    store,
    chainId,
    chainName: chain.name,
    rows,
    state: changes,
    loaded,
    reads,
    fromBlock,
    toBlock,
    prices: graph.priceOf,
    ...sig,
  })
  // Read while the node mined the next block: the reads may hold that block's changes.
  if (atHead && (await headNumber()) > toBlock) return { type: 'unsettled' }
  return {
    type: 'prepared',
    write: {
      chainId,
      fromBlock,
      toBlock,
      toHash: last.hash,
      keepUndo,
      ...rows,
      state: [...changes, ...priceChanges, ...approvals],
      outbox,
    },
    transfers: rows.transfers.length,
    transactions: rows.transactions.length,
  }
}
