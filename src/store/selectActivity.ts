import type { Kysely } from 'kysely'
import { bytesToHex, bytesToHexOrNull } from './hexBytes.ts'
import type { ActivityRecord, Database } from './schema.ts'

/**
 * Activity records (`ActivityRecord`) from the stored rows: each joined with its transaction
 * and, for an item made of one transfer, with that transfer (`toStoredActivity` is the other
 * half). Filter and order on the `a.` columns; the token is `coalesce(a.token_address,
 * tr.token)`. `activityRecordOf` turns a selected row into the record.
 */
export function selectActivity(db: Kysely<Database>) {
  return db
    .selectFrom('activity as a')
    .innerJoin('transactions as t', (join) =>
      join
        .onRef('t.chain_id', '=', 'a.chain_id')
        .onRef('t.block_number', '=', 'a.block_number')
        .onRef('t.tx_index', '=', 'a.tx_index'),
    )
    .leftJoin('transfers as tr', (join) =>
      join
        .onRef('tr.chain_id', '=', 'a.chain_id')
        .onRef('tr.block_number', '=', 'a.block_number')
        .onRef('tr.seq', '=', 'a.transfer_seq'),
    )
    .select((eb) => [
      'a.address',
      'a.chain_id',
      'a.block_number',
      'a.seq',
      'a.block_time',
      'a.tx_index',
      'a.type',
      'a.asset_type',
      'a.spender',
      'a.function_selector',
      'a.to_token_address',
      'a.to_value',
      'a.value_usd',
      'a.transfer_seq',
      't.hash as tx_hash',
      't.from_address as tx_from',
      't.to_address as tx_to',
      't.value as tx_value',
      eb.fn.coalesce('a.token_address', 'tr.token').as('token_address'),
      eb.fn.coalesce('a.from_address', 'tr.from_address').as('from_address'),
      eb.fn.coalesce('a.to_address', 'tr.to_address').as('to_address'),
      eb.fn.coalesce('a.value', 'tr.value').as('value'),
      eb.fn.coalesce('a.token_id', 'tr.token_id').as('token_id'),
    ])
}

type AddressField =
  | 'address'
  | 'tx_from'
  | 'tx_to'
  | 'token_address'
  | 'from_address'
  | 'to_address'
  | 'spender'
  | 'to_token_address'

/** A row of `selectActivity`: the hash and the addresses as stored, bytes. */
type SelectedActivity = Omit<ActivityRecord, 'tx_hash' | AddressField> & {
  tx_hash: Uint8Array
  address: Uint8Array
  tx_from: Uint8Array
} & { [K in Exclude<AddressField, 'address' | 'tx_from'>]: Uint8Array | null }

/** A row of `selectActivity` as the record (hashes and addresses back to hex). */
export function activityRecordOf(row: SelectedActivity): ActivityRecord {
  return {
    ...row,
    tx_hash: bytesToHex(row.tx_hash),
    address: bytesToHex(row.address),
    tx_from: bytesToHex(row.tx_from),
    tx_to: bytesToHexOrNull(row.tx_to),
    token_address: bytesToHexOrNull(row.token_address),
    from_address: bytesToHexOrNull(row.from_address),
    to_address: bytesToHexOrNull(row.to_address),
    spender: bytesToHexOrNull(row.spender),
    to_token_address: bytesToHexOrNull(row.to_token_address),
  }
}
