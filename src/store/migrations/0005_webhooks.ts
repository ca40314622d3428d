import type { Kysely } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/** Webhook subscriptions, their outbox of deliveries, and the subscriptions' version counter. */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  const int = caps.intType

  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    /** balances | activities | transactions */
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text', (c) => c.notNull())
    /** HMAC-SHA256 signing secret (returned once, at creation or rotation). */
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('active', int, (c) => c.notNull())
    /** JSON arrays. */
    .addColumn('chain_ids', 'text', (c) => c.notNull())
    .addColumn('addresses', 'text', (c) => c.notNull())
    /** JSON object of the type's filters. */
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('created_at', int, (c) => c.notNull())
    .addColumn('updated_at', int, (c) => c.notNull())
    .execute()
  // An account's subscriptions in id order (listing, keyset).
  await db.schema
    .createIndex('webhook_subscriptions_by_account')
    .on('webhook_subscriptions')
    .columns(['account_id', 'id'])
    .execute()

  // One row, bumped by every subscription change: indexers reload their cached list when it moves.
  await db.schema
    .createTable('webhook_version')
    .addColumn('id', int, (c) => c.primaryKey())
    .addColumn('version', int, (c) => c.notNull())
    .execute()
  await (db as Kysely<{ webhook_version: { id: number; version: number } }>)
    .insertInto('webhook_version')
    .values({ id: 1, version: 0 })
    .execute()

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('seq', int, (c) => caps.autoId(c))
    /** The `scry-webhook-id` header: the same on every attempt. */
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('block_number', int, (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    /** The JSON body, exactly as sent (and signed). */
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('event_count', int, (c) => c.notNull())
    /** 1 for a delivery that retracts events of a reorged block. */
    .addColumn('removed', int, (c) => c.notNull())
    /** 1 once a reorg removed this delivery's block (a removal was queued if it was delivered). */
    .addColumn('reverted', int, (c) => c.notNull())
    /** pending | delivered | failed | cancelled */
    .addColumn('status', 'text', (c) => c.notNull())
    /** Attempts made so far; the next attempt's retry index. */
    .addColumn('attempts', int, (c) => c.notNull())
    /** Unix milliseconds. */
    .addColumn('next_attempt_at', int, (c) => c.notNull())
    .addColumn('first_attempt_at', int)
    .addColumn('last_attempt_at', int)
    .addColumn('last_status', int)
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', int)
    .addColumn('created_at', int, (c) => c.notNull())
    .execute()
  // The worker's queue: due pending deliveries, oldest first.
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at', 'seq'])
    .execute()
  // Per subscription: block order (is an older one still pending?) and the failed list.
  await db.schema
    .createIndex('webhook_deliveries_by_subscription')
    .on('webhook_deliveries')
    .columns(['subscription_id', 'status', 'seq'])
    .execute()
  // The delivery log, newest first, without a status filter.
  await db.schema
    .createIndex('webhook_deliveries_log')
    .on('webhook_deliveries')
    .columns(['subscription_id', 'seq'])
    .execute()
  // Reorgs: a chain's deliveries past a block.
  await db.schema
    .createIndex('webhook_deliveries_by_block')
    .on('webhook_deliveries')
    .columns(['chain_id', 'block_number'])
    .execute()
}
