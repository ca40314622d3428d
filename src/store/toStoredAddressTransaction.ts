import type { Insertable } from 'kysely'
import { type HexToBytes, hexToBytes } from './hexBytes.ts'
import type { AddressTransactionRecord, Database } from './schema.ts'

/**
 * The row the store keeps for an address's transaction: the address as bytes (`bytes`: see
 * `toStoredActivity`). Pure.
 */
export function toStoredAddressTransaction(
  record: AddressTransactionRecord,
  bytes: HexToBytes = hexToBytes,
): Insertable<Database['address_transactions']> {
  return {
    address: bytes(record.address),
    chain_id: record.chain_id,
    block_number: record.block_number,
    tx_index: record.tx_index,
    block_time: record.block_time,
  }
}
