import type { Insertable } from 'kysely'
import { hexToBytes } from './hexBytes.ts'
import type { AddressTransactionRecord, Database } from './schema.ts'

/** The row the store keeps for an address's transaction: the address as bytes. Pure. */
export function toStoredAddressTransaction(
  record: AddressTransactionRecord,
): Insertable<Database['address_transactions']> {
  return {
    address: hexToBytes(record.address),
    chain_id: record.chain_id,
    block_number: record.block_number,
    tx_index: record.tx_index,
    block_time: record.block_time,
  }
}
