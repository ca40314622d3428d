import { randomUUID } from 'node:crypto'
import type { Selectable, Transaction } from 'kysely'
import type { RowWriter } from '../store/createRowWriter.ts'
import type { Database, WebhookDeliveryTable } from '../store/schema.ts'

/**
 * Runs inside the store's revert transaction, after a reorg removed the blocks past
 * `afterBlock`: their queued deliveries are cancelled, and every delivered (or attempted) one
 * is queued again with each item marked `"removed": true` (a new delivery id, after everything queued so far,
 * so each subscription still sees its deliveries in order). A crash cannot separate the two.
 */
export async function revertWebhookDeliveries({
  trx,
  writer,
  chainId,
  afterBlock,
  now = Date.now(),
}: {
  trx: Transaction<Database>
  writer: RowWriter
  chainId: number
  afterBlock: number
  now?: number
}): Promise<void> {
  const reverted = trx
    .updateTable('webhook_deliveries')
    .where('chain_id', '=', chainId)
    .where('block_number', '>', afterBlock)
    .where('removed', '=', 0)
  // First: on PostgreSQL this waits for a delivery in flight (its worker holds the row), so
  // that one counts as delivered below if it went out.
  await reverted.set({ status: 'cancelled' }).where('status', '=', 'pending').execute()
  const delivered = await trx
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('block_number', '>', afterBlock)
    .where('removed', '=', 0)
    .where('reverted', '=', 0)
    // Delivered, or attempted: a receiver may have acted on an attempt that then timed out
    // or answered an error, so it is told about the removal too.
    .where((eb) =>
      eb.or([
        eb('status', '=', 'delivered'),
        eb.and([eb('status', 'in', ['cancelled', 'failed']), eb('attempts', '>', 0)]),
      ]),
    )
    .orderBy('seq')
    .execute()
  await writer.insert(
    trx,
    'webhook_deliveries',
    delivered.map((d) => removalOf(d, now)),
  )
  await reverted.set({ reverted: 1 }).where('reverted', '=', 0).execute()
}

/** A queued delivery retracting `original`'s events. */
export function removalOf(
  original: Selectable<WebhookDeliveryTable>,
  now: number,
): Record<string, unknown> {
  return {
    id: randomUUID(),
    subscription_id: original.subscription_id,
    account_id: original.account_id,
    chain_id: original.chain_id,
    block_number: original.block_number,
    type: original.type,
    payload: markRemoved(original.payload),
    event_count: original.event_count,
    removed: 1,
    reverted: 1,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
  }
}

function markRemoved(payload: string): string {
  const body = JSON.parse(payload) as Record<string, Record<string, unknown>[]>
  const out: Record<string, unknown[]> = {}
  for (const [key, items] of Object.entries(body)) {
    out[key] = items.map((item) => ({ ...item, removed: true }))
  }
  return JSON.stringify(out)
}
