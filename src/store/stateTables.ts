import type { Insertable } from 'kysely'
import type { Database } from './schema.ts'

/**
 * Tables holding current state (as opposed to append-only history). Changes to them inside the
 * finality window are recorded in `undo_log` so a reorg can restore the previous rows.
 */
export const STATE_KEYS = {
  native_balances: ['address', 'chain_id'],
  token_balances: ['address', 'chain_id', 'token'],
  nft_holdings: ['address', 'chain_id', 'contract', 'token_id'],
  tokens: ['chain_id', 'address'],
  approvals: ['owner', 'chain_id', 'token', 'spender', 'kind'],
  pools: ['chain_id', 'address'],
  token_prices: ['chain_id', 'token'],
  token_price_hours: ['chain_id', 'token', 'hour'],
  defi_tokens: ['chain_id', 'address'],
} as const satisfies { [T in keyof Database]?: readonly (keyof Database[T] & string)[] }

export type StateTable = keyof typeof STATE_KEYS

/** The new full row for a key, or `null` to delete it. */
export type StateChange = {
  [T in StateTable]: {
    table: T
    key: Pick<Database[T], Extract<(typeof STATE_KEYS)[T][number], keyof Database[T]>>
    row: Insertable<Database[T]> | null
  }
}[StateTable]

/**
 * Append-only history keyed by wallet, with no index on the block (migration 0013): a kept
 * batch names each of its rows in `undo_log` (no previous row), and a revert deletes them by
 * key. Rows of batches outside the finality window are never reverted, so they cost no undo.
 * The entries name the address as hex text; the rows hold it as bytes (migration 0017).
 */
export const KEYED_HISTORY = {
  activity: ['address', 'block_time', 'chain_id', 'block_number', 'seq'],
  address_transactions: ['address', 'block_time', 'chain_id', 'block_number', 'tx_index'],
} as const satisfies { [T in keyof Database]?: readonly (keyof Database[T] & string)[] }

export type KeyedHistoryTable = keyof typeof KEYED_HISTORY

/** Append-only tables and the column holding their block number. */
export const APPEND_TABLES = {
  blocks: 'number',
  transactions: 'block_number',
  address_transactions: 'block_number',
  transfers: 'block_number',
  activity: 'block_number',
} as const satisfies { [T in keyof Database]?: keyof Database[T] & string }

export type AppendTable = keyof typeof APPEND_TABLES
