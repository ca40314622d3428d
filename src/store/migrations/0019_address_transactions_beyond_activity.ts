import { type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * `address_transactions` keeps only the (address, transaction) pairs the address has no
 * activity item in (`addressTransactionsToStore`); the API reads a wallet's transactions from
 * both tables (`readWalletTransactions`). The rows that repeat an item's pair (about two of
 * every three) are deleted, and so are the undo entries that named them, as a fresh index
 * would have written none. PostgreSQL reuses the freed space for new rows and gives it back
 * to the file system only after `VACUUM FULL` (docs/deploy.md). Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  await sql`
    delete from address_transactions
    where exists (
      select 1 from activity v
      where v.address = address_transactions.address
        and v.block_time = address_transactions.block_time
        and v.chain_id = address_transactions.chain_id
        and v.block_number = address_transactions.block_number
        and v.tx_index = address_transactions.tx_index
    )
  `.execute(db)

  // Undo entries name rows by their key in JSON, the address in hex (0017).
  const field = (name: string) =>
    caps.name === 'postgres'
      ? sql`(undo_log.row_key::json ->> ${name})`
      : sql`json_extract(undo_log.row_key, ${`$.${name}`})`
  const number = (name: string) =>
    caps.name === 'postgres' ? sql`${field(name)}::bigint` : field(name)
  const address =
    caps.name === 'postgres'
      ? sql`decode(substr(${field('address')}, 3), 'hex')`
      : sql`unhex(substr(${field('address')}, 3))`
  await sql`
    delete from undo_log
    where table_name = 'address_transactions'
      and not exists (
        select 1 from address_transactions a
        where a.address = ${address}
          and a.block_time = ${number('block_time')}
          and a.chain_id = ${number('chain_id')}
          and a.block_number = ${number('block_number')}
          and a.tx_index = ${number('tx_index')}
      )
  `.execute(db)
}
