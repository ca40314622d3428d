import type { Kysely } from 'kysely'
import { bytesToHex } from './hexBytes.ts'
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

/** A row of `selectActivity` as the record (the transaction hash is stored as bytes). */
export function activityRecordOf(
  row: Omit<ActivityRecord, 'tx_hash'> & { tx_hash: Uint8Array },
): ActivityRecord {
  return { ...row, tx_hash: bytesToHex(row.tx_hash) }
}
