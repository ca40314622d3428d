import type { Insertable } from 'kysely'
import { type HexToBytes, hexToBytes } from './hexBytes.ts'
import type { Database, TransferRecord } from './schema.ts'

/**
 * The row the store keeps for a transfer: its transaction holds the hash and time; addresses
 * as bytes (`bytes`: see `toStoredActivity`). Pure.
 */
export function toStoredTransfer(
  record: TransferRecord,
  bytes: HexToBytes = hexToBytes,
): Insertable<Database['transfers']> {
  return {
    chain_id: record.chain_id,
    block_number: record.block_number,
    seq: record.seq,
    tx_index: record.tx_index,
    kind: record.kind,
    token: record.token === null ? null : bytes(record.token),
    from_address: bytes(record.from_address),
    to_address: bytes(record.to_address),
    token_id: record.token_id,
    value: record.value,
  }
}
