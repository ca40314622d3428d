import type { HistoryRows } from '../evm/derive/deriveHistory.ts'
import type { BatchReads, LoadedState } from '../evm/read/readBatchState.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Store } from '../store/createStore.ts'
import type { TokenTable } from '../store/schema.ts'
import type { StateChange } from '../store/stateTables.ts'
import {
  type DeliveryInsert,
  deriveWebhookEvents,
  type TokenInfo,
  type WebhookPrices,
} from './deriveWebhookEvents.ts'
import { loadActiveSubscriptions } from './loadActiveSubscriptions.ts'
import { readBalanceChanges } from './readBalanceChanges.ts'

/**
 * The indexer's one call into webhooks: the outbox rows of a batch, to be committed in the
 * batch's own transaction (`BatchWrite.outbox`). Costs one single-row read when nobody
 * subscribes to this chain; balance subscriptions add node reads for their own addresses only.
 */
export async function collectWebhookEvents({
  rpc,
  store,
  chainId,
  chainName,
  rows,
  state,
  loaded,
  reads,
  fromBlock,
  toBlock,
  prices,
  signal,
}: {
  rpc: RpcClient
  store: Store
  chainId: number
  /** The configured catalogue's name (`chain` of the items, as the API has it). */
  chainName: string
  rows: HistoryRows
  state: readonly StateChange[]
  loaded: LoadedState
  reads: BatchReads
  fromBlock: number
  toBlock: number
  prices?: WebhookPrices
  signal?: AbortSignal
}): Promise<DeliveryInsert[]> {
  const subscriptions = await loadActiveSubscriptions({ store, chainId })
  if (subscriptions.size === 0) return []
  const balanceAddresses = new Set<string>()
  for (const [address, subs] of subscriptions) {
    if (subs.some((s) => s.type === 'balances')) balanceAddresses.add(address)
  }
  const balanceChanges = await readBalanceChanges({
    rpc,
    rows,
    reads,
    subscribed: balanceAddresses,
    fromBlock,
    toBlock,
    ...(signal ? { signal } : {}),
  })
  const tokens = new Map<string, TokenInfo>(loaded.tokens)
  for (const change of state) {
    if (change.table === 'tokens' && change.row) {
      const row = change.row as TokenTable
      tokens.set(row.address, row)
    }
  }
  return deriveWebhookEvents({
    chainId,
    chainName,
    rows,
    tokens,
    balanceChanges,
    subscriptions,
    prices,
  })
}
