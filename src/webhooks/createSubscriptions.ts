import { randomBytes } from 'node:crypto'
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely'
import type { Store } from '../store/createStore.ts'
import type { Database, WebhookDeliveryTable } from '../store/schema.ts'
import { createUuidV7 } from '../utils/createUuidV7.ts'
import {
  checkWebhookUrl,
  InvalidWebhookUrlError,
  type WebhookUrlPolicy,
} from './checkWebhookUrl.ts'
import {
  checkAddressCount,
  type FilterInput,
  InvalidSubscriptionError,
  parseAddresses,
  parseChainIds,
  parseFilters,
  parseType,
} from './parseSubscriptionInput.ts'
import { type Subscription, toSubscription } from './subscription.ts'

/**
 * Subscription ids: UUIDv7, which the hosted API's webhook paths take, in creation order
 * within this process (the list is ordered by id). Ids made before these were `sub_…`; they
 * keep working, and list after these.
 */
const newId = createUuidV7()

/** `chain_ids` and the address lists: arrays, or a single value standing alone. */
export type CreateInput = FilterInput & {
  webhook_url: string
  type: string
  chain_ids: number | number[]
  addresses: string | string[]
  name?: string
}

export type UpdateInput = FilterInput & {
  webhook_url?: string
  name?: string | null
  active?: boolean
  chain_ids?: number | number[]
  addresses?: string | string[]
  add_addresses?: string | string[]
  remove_addresses?: string | string[]
  type?: unknown
}

export type DeliveryRow = Selectable<WebhookDeliveryTable>

/** Subscription management for the API; every call is scoped to one account. */
export type Subscriptions = {
  create(args: { accountId: string; input: CreateInput }): Promise<Subscription>
  /** In id (creation) order, after `afterId`. */
  list(args: { accountId: string; afterId?: string; limit: number }): Promise<Subscription[]>
  /** `undefined` for an unknown id or another account's. */
  get(args: { accountId: string; id: string }): Promise<Subscription | undefined>
  update(args: {
    accountId: string
    id: string
    input: UpdateInput
  }): Promise<Subscription | undefined>
  /** Deletes the subscription and its queued deliveries; false when not found. */
  remove(args: { accountId: string; id: string }): Promise<boolean>
  rotateSecret(args: { accountId: string; id: string }): Promise<Subscription | undefined>
  /** Newest first, before `beforeSeq`; `undefined` when the subscription is not found. */
  deliveries(args: {
    accountId: string
    id: string
    status?: string
    beforeSeq?: number
    limit: number
  }): Promise<DeliveryRow[] | undefined>
  /** Queues a failed delivery again (attempts from 0, same id). */
  redeliver(args: {
    accountId: string
    id: string
    deliveryId: string
  }): Promise<DeliveryRow | 'not_found' | 'not_failed' | 'reverted'>
}

/**
 * Every change bumps `webhook_version` in the same transaction, which is how indexers (in this
 * process or another) know to reload their cached list of active subscriptions.
 */
export function createSubscriptions({
  store,
  policy,
  enabledChains,
  now = Date.now,
}: {
  store: Store
  policy: WebhookUrlPolicy
  /** Chains this instance indexes: subscriptions may only name these. */
  enabledChains: ReadonlySet<number>
  now?: () => number
}): Subscriptions {
  const db = store.db

  async function url(input: string): Promise<string> {
    try {
      return await checkWebhookUrl({ url: input, policy })
    } catch (error) {
      if (error instanceof InvalidWebhookUrlError)
        throw new InvalidSubscriptionError(error.shortMessage)
      throw error
    }
  }
  const find = (q: Kysely<Database> | Transaction<Database>, accountId: string, id: string) =>
    q
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst()

  return {
    async create({ accountId, input }) {
      const type = parseType(input.type)
      const chainIds = parseChainIds(input.chain_ids, enabledChains)
      const addresses = parseAddresses(input.addresses, 'addresses')
      checkAddressCount(addresses)
      const filters = parseFilters({ type, input: pickFilters(input) })
      if (input.name !== undefined && input.name.length > 200) {
        throw new InvalidSubscriptionError('name is longer than 200 characters.')
      }
      const webhookUrl = await url(input.webhook_url)
      const time = now()
      const row = {
        id: newId(time),
        account_id: accountId,
        name: input.name ?? null,
        type,
        webhook_url: webhookUrl,
        secret: newSecret(),
        active: 1,
        chain_ids: JSON.stringify(chainIds),
        addresses: JSON.stringify(addresses),
        filters: JSON.stringify(filters),
        created_at: time,
        updated_at: time,
      }
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('webhook_subscriptions').values(row).execute()
        await bumpVersion(trx)
      })
      return toSubscription(row)
    },

    async list({ accountId, afterId, limit }) {
      let q = db.selectFrom('webhook_subscriptions').selectAll().where('account_id', '=', accountId)
      if (afterId !== undefined) q = q.where('id', '>', afterId)
      const rows = await q.orderBy('id').limit(limit).execute()
      return rows.map(toSubscription)
    },

    async get({ accountId, id }) {
      const row = await find(db, accountId, id)
      return row ? toSubscription(row) : undefined
    },

    async update({ accountId, id, input }) {
      if (input.type !== undefined) {
        throw new InvalidSubscriptionError('type cannot be changed; create a new subscription.')
      }
      const existing = await find(db, accountId, id)
      if (!existing) return undefined
      const current = toSubscription(existing)
      const set: Record<string, unknown> = {}
      if (input.webhook_url !== undefined) set.webhook_url = await url(input.webhook_url)
      if (input.name !== undefined) {
        if (input.name !== null && input.name.length > 200) {
          throw new InvalidSubscriptionError('name is longer than 200 characters.')
        }
        set.name = input.name
      }
      if (input.active !== undefined) set.active = input.active ? 1 : 0
      if (input.chain_ids !== undefined) {
        set.chain_ids = JSON.stringify(parseChainIds(input.chain_ids, enabledChains))
      }
      if (
        input.addresses !== undefined ||
        input.add_addresses !== undefined ||
        input.remove_addresses !== undefined
      ) {
        const base =
          input.addresses !== undefined
            ? parseAddresses(input.addresses, 'addresses')
            : current.addresses
        const add = parseAddresses(input.add_addresses ?? [], 'add_addresses')
        const drop = new Set(parseAddresses(input.remove_addresses ?? [], 'remove_addresses'))
        const next = [...new Set([...base, ...add])].filter((a) => !drop.has(a))
        checkAddressCount(next)
        set.addresses = JSON.stringify(next)
      }
      const filters = parseFilters({
        type: current.type,
        input: pickFilters(input),
        current: current.filters,
      })
      set.filters = JSON.stringify(filters)
      set.updated_at = now()
      const updated = await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('webhook_subscriptions')
          .set(set)
          .where('id', '=', id)
          .where('account_id', '=', accountId)
          .execute()
        await bumpVersion(trx)
        return find(trx, accountId, id)
      })
      return updated ? toSubscription(updated) : undefined
    },

    async remove({ accountId, id }) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('webhook_subscriptions')
          .where('id', '=', id)
          .where('account_id', '=', accountId)
          .executeTakeFirst()
        if (Number(result.numDeletedRows) === 0) return false
        // Queued deliveries go with it; delivered and failed ones are history, also dropped.
        await trx.deleteFrom('webhook_deliveries').where('subscription_id', '=', id).execute()
        await bumpVersion(trx)
        return true
      })
    },

    async rotateSecret({ accountId, id }) {
      const result = await db
        .updateTable('webhook_subscriptions')
        .set({ secret: newSecret(), updated_at: now() })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) === 0) return undefined
      const row = await find(db, accountId, id)
      return row ? toSubscription(row) : undefined
    },

    async deliveries({ accountId, id, status, beforeSeq, limit }) {
      if (!(await find(db, accountId, id))) return undefined
      let q = db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', id)
      if (status !== undefined) q = q.where('status', '=', status as DeliveryRow['status'])
      if (beforeSeq !== undefined) q = q.where('seq', '<', beforeSeq)
      return q.orderBy('seq', 'desc').limit(limit).execute()
    },

    async redeliver({ accountId, id, deliveryId }) {
      if (!(await find(db, accountId, id))) return 'not_found'
      const row = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', deliveryId)
        .where('subscription_id', '=', id)
        .executeTakeFirst()
      if (!row) return 'not_found'
      if (row.status !== 'failed') return 'not_failed'
      // Its block was reorged away: the events no longer exist.
      if (row.reverted === 1 && row.removed === 0) return 'reverted'
      // Queued again under the same id but at the end of the subscription's order, so that
      // the deliveries after it are not held back behind its new retries.
      const { seq: _seq, ...rest } = row
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('webhook_deliveries').where('id', '=', deliveryId).execute()
        await trx
          .insertInto('webhook_deliveries')
          .values({
            ...rest,
            status: 'pending',
            attempts: 0,
            next_attempt_at: now(),
            first_attempt_at: null,
            last_error: null,
            last_status: null,
          })
          .execute()
      })
      return (await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', deliveryId)
        .executeTakeFirst()) as DeliveryRow
    },
  }
}

function pickFilters(input: FilterInput): FilterInput {
  const { activity_type, asset_type, token_address, transaction_type, counterparty } = input
  return { activity_type, asset_type, token_address, transaction_type, counterparty }
}

async function bumpVersion(trx: Transaction<Database>): Promise<void> {
  await trx
    .updateTable('webhook_version')
    .set({ version: sql`version + 1` })
    .where('id', '=', 1)
    .execute()
}

/** The HMAC key is this whole string, as UTF-8. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString('hex')}`
}
