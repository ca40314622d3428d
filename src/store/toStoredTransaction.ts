import type { Insertable } from 'kysely'
import { bytesToHex, bytesToHexOrNull, hexToBytes, hexToBytesOrNull } from './hexBytes.ts'
import type { Database, TransactionRecord, TransactionTable } from './schema.ts'

/** The row the store keeps for a transaction: hashes, calldata and addresses as bytes. Pure. */
export function toStoredTransaction(
  record: TransactionRecord,
): Insertable<Database['transactions']> {
  return {
    ...record,
    hash: hexToBytes(record.hash),
    block_hash: hexToBytes(record.block_hash),
    input: hexToBytes(record.input),
    from_address: hexToBytes(record.from_address),
    to_address: hexToBytesOrNull(record.to_address),
    contract_address: hexToBytesOrNull(record.contract_address),
  }
}

/** The transaction a stored row holds (`toStoredTransaction` undone). Pure. */
export function fromStoredTransaction(row: TransactionTable): TransactionRecord {
  return {
    ...row,
    hash: bytesToHex(row.hash),
    block_hash: bytesToHex(row.block_hash),
    input: bytesToHex(row.input),
    from_address: bytesToHex(row.from_address),
    to_address: bytesToHexOrNull(row.to_address),
    contract_address: bytesToHexOrNull(row.contract_address),
  }
}
