import { type Subscription, type SubscriptionType, toSubscriptionJson } from './subscription.ts'

/** A subscription in the hosted API's published `Webhook` shape (docs/migrating.md). */
export type WebhookJson = {
  id: string
  /** The owning account. */
  team_id: string
  name?: string
  type: SubscriptionType
  url: string
  active: boolean
  created_at: string
  updated_at: string
  chain_ids: number[]
  transaction_type?: string
  counterparty?: string
  /** One activity type; several (set through /v1) as comma-separated text. */
  activity_type?: string
  asset_type?: string
  token_address?: string
  /** Signing secret: only when created. */
  secret?: string
}

/**
 * The published view of a subscription: `url` for `webhook_url`, `team_id` for the account,
 * filters as single values, unset ones omitted; addresses are listed by their own path.
 */
export function toWebhookJson(
  sub: Subscription,
  { withSecret = false }: { withSecret?: boolean } = {},
): WebhookJson {
  const {
    webhook_url,
    addresses: _addresses,
    activity_type,
    asset_type,
    ...rest
  } = toSubscriptionJson(sub, { withSecret })
  return {
    ...rest,
    team_id: sub.accountId,
    url: webhook_url,
    ...(activity_type !== undefined ? { activity_type: activity_type.join(',') } : {}),
    ...(asset_type !== undefined ? { asset_type: asset_type.join(',') } : {}),
  }
}
