import type { Insertable } from 'kysely'
import { type HexToBytes, hexToBytes } from './hexBytes.ts'
import type { ActivityRecord, Database } from './schema.ts'

/**
 * The row the store keeps for an activity item (migration 0012): without the transaction's
 * fields, and, for an item made of one transfer, without the transfer's (`selectActivity`
 * joins both back); addresses as bytes (migration 0017). Pure; every row is built with the
 * same fields in the same order (rest and spread here cost more than the whole row write).
 * `bytes` turns hex into bytes (a batch passes one that remembers its addresses).
 */
export function toStoredActivity(
  record: ActivityRecord,
  bytes: HexToBytes = hexToBytes,
): Insertable<Database['activity']> {
  const own = record.transfer_seq === null
  return {
    address: bytes(record.address),
    chain_id: record.chain_id,
    block_number: record.block_number,
    seq: record.seq,
    block_time: record.block_time,
    tx_index: record.tx_index,
    type: record.type,
    asset_type: record.asset_type,
    token_address: own && record.token_address !== null ? bytes(record.token_address) : null,
    from_address: own && record.from_address !== null ? bytes(record.from_address) : null,
    to_address: own && record.to_address !== null ? bytes(record.to_address) : null,
    value: own ? record.value : null,
    token_id: own ? record.token_id : null,
    spender: record.spender === null ? null : bytes(record.spender),
    function_selector: record.function_selector,
    to_token_address: record.to_token_address === null ? null : bytes(record.to_token_address),
    to_value: record.to_value,
    value_usd: record.value_usd,
    transfer_seq: record.transfer_seq,
  }
}
