import type { Insertable } from 'kysely'
import type { ActivityRecord, Database } from './schema.ts'

/**
 * The row the store keeps for an activity item (migration 0012): without the transaction's
 * fields, and, for an item made of one transfer, without the transfer's (`selectActivity`
 * joins both back). Pure.
 */
export function toStoredActivity(record: ActivityRecord): Insertable<Database['activity']> {
  const { tx_hash, tx_from, tx_to, tx_value, ...row } = record
  if (row.transfer_seq === null) return row
  return {
    ...row,
    token_address: null,
    from_address: null,
    to_address: null,
    value: null,
    token_id: null,
  }
}
