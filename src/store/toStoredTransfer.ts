import type { Insertable } from 'kysely'
import { hexToBytes, hexToBytesOrNull } from './hexBytes.ts'
import type { Database, TransferRecord } from './schema.ts'

/**
 * The row the store keeps for a transfer: its transaction holds the hash and time; addresses
 * as bytes. Pure.
 */
export function toStoredTransfer(record: TransferRecord): Insertable<Database['transfers']> {
  return {
    chain_id: record.chain_id,
    block_number: record.block_number,
    seq: record.seq,
    tx_index: record.tx_index,
    kind: record.kind,
    token: hexToBytesOrNull(record.token),
    from_address: hexToBytes(record.from_address),
    to_address: hexToBytes(record.to_address),
    token_id: record.token_id,
    value: record.value,
  }
}
