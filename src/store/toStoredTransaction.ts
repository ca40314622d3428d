import type { Insertable } from 'kysely'
import { bytesToHex, hexToBytes } from './hexBytes.ts'
import type { Database, TransactionRecord, TransactionTable } from './schema.ts'

/** The row the store keeps for a transaction: hashes and calldata as bytes. Pure. */
export function toStoredTransaction(
  record: TransactionRecord,
): Insertable<Database['transactions']> {
  return {
    ...record,
    hash: hexToBytes(record.hash),
    block_hash: hexToBytes(record.block_hash),
    input: hexToBytes(record.input),
  }
}

/** The transaction a stored row holds (`toStoredTransaction` undone). Pure. */
export function fromStoredTransaction(row: TransactionTable): TransactionRecord {
  return {
    ...row,
    hash: bytesToHex(row.hash),
    block_hash: bytesToHex(row.block_hash),
    input: bytesToHex(row.input),
  }
}
