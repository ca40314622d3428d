import { type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/** Every address column of the history tables when this migration was released. */
const COLUMNS: Record<string, string[]> = {
  transactions: ['from_address', 'to_address', 'contract_address'],
  logs: ['address'],
  address_transactions: ['address'],
  transfers: ['token', 'from_address', 'to_address'],
  activity: [
    'address',
    'token_address',
    'from_address',
    'to_address',
    'spender',
    'to_token_address',
  ],
}

/**
 * Addresses of the history tables as their 20 bytes instead of 42 characters of `0x` hex text:
 * the wallet that keys `activity` and `address_transactions` (and so their primary-key
 * indexes), the transfers' token and parties, the transactions' parties, the logs' emitter.
 * PostgreSQL changes the column types to `bytea` (each table rewritten with its indexes, in
 * the migration's transaction). SQLite rewrites the values in place (`unhex`): its columns
 * keep their declared type `text`, which on SQLite only sets a preference, and hold blobs, as
 * new rows do. Byte order equals the order of the lowercase hex, so keys scan the same. Undo
 * entries keep naming addresses in hex (`revertBatches` converts). State tables (balances,
 * holdings, approvals, prices) keep hex text. Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  for (const [table, columns] of Object.entries(COLUMNS)) {
    if (caps.name === 'postgres') {
      const changes = columns.map(
        (c) =>
          sql`alter column ${sql.id(c)} type bytea using decode(substr(${sql.id(c)}, 3), 'hex')`,
      )
      await sql`alter table ${sql.table(table)} ${sql.join(changes)}`.execute(db)
    } else {
      const sets = columns.map((c) => sql`${sql.id(c)} = unhex(substr(${sql.id(c)}, 3))`)
      await sql`update ${sql.table(table)} set ${sql.join(sets)}`.execute(db)
    }
  }
}
