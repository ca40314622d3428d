import { randomUUID } from 'node:crypto'
import type { Selectable, Transaction } from 'kysely'
import type { RowWriter } from '../store/createRowWriter.ts'
import type { Database, WebhookDeliveryTable } from '../store/schema.ts'

/**
 * Runs inside the store's revert transaction, after a reorg removed the blocks past
 * `afterBlock`: their queued deliveries are cancelled (but one whose first attempt has no
 * outcome on record, which goes out first), and every delivered (or attempted) one is queued
 * again with each item marked `"removed": true` (a new delivery id, after everything queued so
 * far, so each subscription still sees its deliveries in order). A crash cannot separate the
 * two.
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
  // Queued deliveries no one has tried are cancelled: no receiver saw them. One whose first
  // attempt started and has no outcome on record (in flight, or its worker was killed
  // mid-POST) stays queued: it goes out (again, same id), then the removal queued below
  // behind it, so the receiver ends without it either way. On PostgreSQL this waits for a
  // retry in flight (its worker holds the row), which then counts as attempted below.
  await reverted
    .set({ status: 'cancelled' })
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('attempts', '>', 0), eb('first_attempt_at', 'is', null)]))
    .execute()
  const delivered = await trx
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('block_number', '>', afterBlock)
    .where('removed', '=', 0)
    .where('reverted', '=', 0)
    // Delivered, or attempted: a receiver may have acted on an attempt that then timed out,
    // answered an error or has no outcome on record yet (an attempt's start is committed
    // before its POST), so it is told about the removal too.
    .where((eb) => eb.or([eb('status', '=', 'delivered'), eb('first_attempt_at', 'is not', null)]))
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
