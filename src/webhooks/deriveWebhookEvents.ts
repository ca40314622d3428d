import { randomUUID } from 'node:crypto'
import type { Insertable } from 'kysely'
import { nativeCurrency } from '../chains/nativeCurrencies.ts'
import { createAbiRegistry } from '../evm/abi/createAbiRegistry.ts'
import type { HistoryRows } from '../evm/derive/deriveHistory.ts'
import type { Address } from '../evm/types.ts'
import {
  type ActivityFunction,
  type ActivityItem,
  describeCall,
  toActivityItem,
} from '../items/toActivityItem.ts'
import { type TransactionItem, toTransactionItem } from '../items/toTransactionItem.ts'
import type { BatchPriceOf } from '../prices/createPriceGraph.ts'
import type { ActivityRecord, TokenTable, WebhookDeliveryTable } from '../store/schema.ts'
import type { ChainSubscriptions } from './loadActiveSubscriptions.ts'
import type { BalanceChange } from './readBalanceChanges.ts'
import type { Subscription, SubscriptionType } from './subscription.ts'

export type TokenInfo = Pick<TokenTable, 'name' | 'symbol' | 'decimals' | 'standard'>

/**
 * Prices after the batch: balance changes carry `price_usd` and the `value_*_usd` fields,
 * activity items the token metadata's price; absent, they are omitted (never invented).
 */
export type WebhookPrices = BatchPriceOf

export type BalanceChangeItem = {
  subscribed_address: string
  chain_id: number
  block_number: number
  transaction_hash?: string
  direction: 'in' | 'out'
  counterparty_address?: string
  asset: { token_address: string; symbol?: string; name?: string; decimals?: number }
  amount_before: string
  amount_after: string
  amount_delta: string
  price_usd?: number
  value_before_usd?: number
  value_after_usd?: number
  value_delta_usd?: number
}

export type WebhookItem = BalanceChangeItem | ActivityItem | TransactionItem

/** The body's one key per type. */
export const PAYLOAD_KEY: Record<SubscriptionType, string> = {
  balances: 'balance_changes',
  activities: 'activities',
  transactions: 'transactions',
}

export type DeliveryInsert = Insertable<WebhookDeliveryTable>

// Call items name their function from the built-in ABIs (operator ABIs are the API's).
const registry = createAbiRegistry()

/**
 * Pure: a batch's rows and balance changes, matched against the chain's active subscriptions,
 * become outbox rows: one delivery per subscription and block that has events, its body the
 * exact JSON to send. Activity and transaction items are the API's own item shapes.
 */
export function deriveWebhookEvents({
  chainId,
  chainName,
  rows,
  tokens,
  balanceChanges,
  subscriptions,
  prices,
  now = Date.now(),
  newId = randomUUID,
}: {
  chainId: number
  chainName: string
  rows: Pick<HistoryRows, 'activity' | 'transactions' | 'logs'>
  /** Token metadata after the batch, by address. */
  tokens: ReadonlyMap<string, TokenInfo>
  balanceChanges: readonly BalanceChange[]
  subscriptions: ChainSubscriptions
  prices?: WebhookPrices | undefined
  now?: number
  newId?: () => string
}): DeliveryInsert[] {
  if (subscriptions.size === 0) return []
  // Items per subscription and block, in the batch's order.
  const groups = new Map<string, { sub: Subscription; block: number; items: WebhookItem[] }>()
  const add = (sub: Subscription, block: number, item: WebhookItem) => {
    const key = `${sub.id}|${block}`
    let group = groups.get(key)
    if (!group) {
      group = { sub, block, items: [] }
      groups.set(key, group)
    }
    group.items.push(item)
  }
  const subsOf = (address: string | null | undefined, type: SubscriptionType) =>
    address ? (subscriptions.get(address) ?? []).filter((s) => s.type === type) : []

  for (const change of balanceChanges) {
    for (const sub of subsOf(change.address, 'balances')) {
      const f = sub.filters
      const assetType = change.asset === 'native' ? 'native' : 'erc20'
      if (f.asset_type && !f.asset_type.includes(assetType)) continue
      if (f.token_address && f.token_address !== change.asset) continue
      add(sub, change.blockNumber, balanceItem({ chainId, change, tokens, prices }))
    }
  }

  for (const row of rows.activity) {
    const subs = subsOf(row.address, 'activities')
    if (subs.length === 0) continue
    const token = row.token_address ? tokens.get(row.token_address) : undefined
    const toToken = row.to_token_address ? tokens.get(row.to_token_address) : undefined
    const item = toActivityItem({
      row,
      token,
      toToken,
      ...(prices ? { priceOf: (asset: string) => prices(asset as Address | 'native') } : {}),
      fn: callFunction(row, rows.transactions),
    })
    for (const sub of subs) {
      const f = sub.filters
      if (f.activity_type && !f.activity_type.includes(row.type)) continue
      if (f.asset_type && !(row.asset_type && f.asset_type.includes(row.asset_type))) continue
      // As the API: a token filter keeps that token's items; swaps name two tokens.
      if (f.token_address && (row.token_address !== f.token_address || row.type === 'swap'))
        continue
      add(sub, Number(row.block_number), item)
    }
  }

  for (const tx of rows.transactions) {
    const receiver = tx.to_address ?? tx.contract_address
    const involved = new Set([tx.from_address, receiver].filter((a): a is string => !!a))
    let logs: typeof rows.logs | undefined
    for (const address of involved) {
      for (const sub of subsOf(address, 'transactions')) {
        const f = sub.filters
        const sent = tx.from_address === address
        const received = receiver === address
        const sides: ('sender' | 'receiver')[] = []
        if (sent && f.transaction_type !== 'receiver') sides.push('sender')
        if (received && f.transaction_type !== 'sender') sides.push('receiver')
        const match = sides.some((side) => {
          const other = side === 'sender' ? receiver : tx.from_address
          return !f.counterparty || other === f.counterparty
        })
        if (!match) continue
        logs ??= rows.logs.filter(
          (l) => l.block_number === tx.block_number && l.tx_index === tx.tx_index,
        )
        add(
          sub,
          Number(tx.block_number),
          toTransactionItem({
            tx,
            logs,
            wallet: address,
            chain: chainName,
          }),
        )
      }
    }
  }

  // Block order: the outbox's insertion order is each subscription's delivery order.
  const ordered = [...groups.values()].sort((a, b) => a.block - b.block)
  return ordered.map(({ sub, block, items }) => ({
    id: newId(),
    subscription_id: sub.id,
    account_id: sub.accountId,
    chain_id: chainId,
    block_number: block,
    type: sub.type,
    payload: JSON.stringify({ [PAYLOAD_KEY[sub.type]]: items }),
    event_count: items.length,
    removed: 0,
    reverted: 0,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
  }))
}

function balanceItem({
  chainId,
  change,
  tokens,
  prices,
}: {
  chainId: number
  change: BalanceChange
  tokens: ReadonlyMap<string, TokenInfo>
  prices: WebhookPrices | undefined
}): BalanceChangeItem {
  const delta = change.after - change.before
  let asset: BalanceChangeItem['asset']
  let decimals: number | undefined
  if (change.asset === 'native') {
    const native = nativeCurrency(chainId)
    asset = { token_address: 'native', ...native }
    decimals = native.decimals
  } else {
    const token = tokens.get(change.asset)
    asset = { token_address: change.asset }
    if (token?.symbol != null) asset.symbol = token.symbol
    if (token?.name != null) asset.name = token.name
    if (token?.decimals != null) {
      decimals = Number(token.decimals)
      asset.decimals = decimals
    }
  }
  const item: BalanceChangeItem = {
    subscribed_address: change.address,
    chain_id: chainId,
    block_number: change.blockNumber,
    direction: delta > 0n ? 'in' : 'out',
    asset,
    amount_before: change.before.toString(),
    amount_after: change.after.toString(),
    amount_delta: delta.toString(),
  }
  if (change.txHash) item.transaction_hash = change.txHash
  if (change.counterparty) item.counterparty_address = change.counterparty
  const price = prices?.(change.asset as Address | 'native')?.priceUsd
  if (price !== undefined && decimals !== undefined) {
    const usd = (amount: bigint) => (Number(amount) / 10 ** decimals) * price
    item.price_usd = price
    item.value_before_usd = usd(change.before)
    item.value_after_usd = usd(change.after)
    item.value_delta_usd = usd(delta)
  }
  return item
}

/** `function` of a call item, named from the built-in ABIs when they know the selector. */
function callFunction(
  row: ActivityRecord,
  transactions: HistoryRows['transactions'],
): ActivityFunction | undefined {
  if (row.type !== 'call' || !row.function_selector) return undefined
  const input = transactions.find(
    (t) => t.block_number === row.block_number && t.tx_index === row.tx_index,
  )?.input
  return describeCall({ registry, selector: row.function_selector, input })
}
