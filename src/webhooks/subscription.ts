import type { Selectable } from 'kysely'
import type { WebhookSubscriptionTable } from '../store/schema.ts'

export type SubscriptionType = 'balances' | 'activities' | 'transactions'

export const SUBSCRIPTION_TYPES: readonly SubscriptionType[] = [
  'balances',
  'activities',
  'transactions',
]

/** Filters; each applies to some types only (see `FILTERS_BY_TYPE`). */
export type SubscriptionFilters = {
  /** Activity types (`transfer` expanded to send and receive). */
  activity_type?: string[]
  /** Asset types: native, erc20 (balances); also erc721, erc1155 (activities). */
  asset_type?: string[]
  /** Only this token (lowercase). */
  token_address?: string
  /** Transactions the address sent, or received (is `to` or created). */
  transaction_type?: 'sender' | 'receiver'
  /** Transactions whose other side is this address (lowercase). */
  counterparty?: string
}

export type FilterName = keyof SubscriptionFilters

export const FILTERS_BY_TYPE: Record<SubscriptionType, readonly FilterName[]> = {
  balances: ['asset_type', 'token_address'],
  activities: ['activity_type', 'asset_type', 'token_address'],
  transactions: ['transaction_type', 'counterparty'],
}

export const ACTIVITY_TYPES = ['send', 'receive', 'mint', 'burn', 'swap', 'approve', 'call']
export const ASSET_TYPES_BY_TYPE: Record<'balances' | 'activities', readonly string[]> = {
  balances: ['native', 'erc20'],
  activities: ['native', 'erc20', 'erc721', 'erc1155'],
}

export type Subscription = {
  id: string
  accountId: string
  name: string | null
  type: SubscriptionType
  webhookUrl: string
  secret: string
  active: boolean
  chainIds: number[]
  addresses: string[]
  filters: SubscriptionFilters
  createdAt: number
  updatedAt: number
}

export function toSubscription(row: Selectable<WebhookSubscriptionTable>): Subscription {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    type: row.type,
    webhookUrl: row.webhook_url,
    secret: row.secret,
    active: Number(row.active) === 1,
    chainIds: JSON.parse(row.chain_ids) as number[],
    addresses: JSON.parse(row.addresses) as string[],
    filters: JSON.parse(row.filters) as SubscriptionFilters,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  }
}

export type SubscriptionJson = {
  id: string
  name?: string
  type: SubscriptionType
  webhook_url: string
  active: boolean
  chain_ids: number[]
  addresses: string[]
  created_at: string
  updated_at: string
  secret?: string
} & SubscriptionFilters

/** The API's view of a subscription; the secret only when `withSecret`. */
export function toSubscriptionJson(
  sub: Subscription,
  { withSecret = false }: { withSecret?: boolean } = {},
): SubscriptionJson {
  const out: SubscriptionJson = {
    id: sub.id,
    type: sub.type,
    webhook_url: sub.webhookUrl,
    active: sub.active,
    chain_ids: sub.chainIds,
    addresses: sub.addresses,
    ...sub.filters,
    created_at: iso(sub.createdAt),
    updated_at: iso(sub.updatedAt),
  }
  if (sub.name !== null) out.name = sub.name
  if (withSecret) out.secret = sub.secret
  return out
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00')
}
