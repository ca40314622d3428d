import type { Insertable } from 'kysely'
import { bytesToHex, bytesToHexOrNull, type HexToBytes, hexToBytes } from './hexBytes.ts'
import { packCalldata, unpackCalldata } from './packCalldata.ts'
import { type PackedLog, packLogs } from './packLogs.ts'
import type { BlockTable, Database, TransactionRecord, TransactionTable } from './schema.ts'

/**
 * The row the store keeps for a transaction and its logs (in log-index order): hashes and
 * addresses as bytes, calldata and logs packed (`packCalldata`, `packLogs`: migrations 0022,
 * 0023), without the block's hash and time (`blocks` has them, migration 0021). Pure; every
 * row is built with the same fields in the same order. `bytes` turns addresses into bytes
 * (see `toStoredActivity`; the hash, unique, is decoded as it is).
 */
export function toStoredTransaction(
  record: TransactionRecord,
  logs: readonly PackedLog[],
  bytes: HexToBytes = hexToBytes,
): Insertable<Database['transactions']> {
  return {
    chain_id: record.chain_id,
    block_number: record.block_number,
    tx_index: record.tx_index,
    hash: hexToBytes(record.hash),
    from_address: bytes(record.from_address),
    to_address: record.to_address === null ? null : bytes(record.to_address),
    contract_address: record.contract_address === null ? null : bytes(record.contract_address),
    value: record.value,
    nonce: record.nonce,
    gas_price: record.gas_price,
    gas_used: record.gas_used,
    tx_type: record.tx_type,
    input: packCalldata(record.input),
    success: record.success,
    logs: packLogs(logs),
  }
}

/**
 * The transaction a stored row and its block hold (`toStoredTransaction` undone; its logs are
 * `unpackLogs(row.logs)`). Pure.
 */
export function fromStoredTransaction(
  row: TransactionTable,
  block: Pick<BlockTable, 'hash' | 'timestamp'>,
): TransactionRecord {
  return {
    chain_id: row.chain_id,
    block_number: row.block_number,
    tx_index: row.tx_index,
    hash: bytesToHex(row.hash),
    block_hash: block.hash,
    block_time: Number(block.timestamp),
    from_address: bytesToHex(row.from_address),
    to_address: bytesToHexOrNull(row.to_address),
    contract_address: bytesToHexOrNull(row.contract_address),
    value: row.value,
    nonce: row.nonce,
    gas_price: row.gas_price,
    gas_used: row.gas_used,
    tx_type: row.tx_type,
    input: unpackCalldata(row.input),
    success: row.success,
  }
}
