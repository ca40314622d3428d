import type { Insertable } from 'kysely'
import type { Database, TransferRecord } from './schema.ts'

/** The row the store keeps for a transfer: its transaction holds the hash and time. Pure. */
export function toStoredTransfer(record: TransferRecord): Insertable<Database['transfers']> {
  const { tx_hash, block_time, ...row } = record
  return row
}
