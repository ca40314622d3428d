import { type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * `transactions` loses `block_hash` and `block_time`: every row repeated its block's, which
 * `blocks` keeps once (the API reads them from there, `readWalletTransactions`; activity and
 * `address_transactions` keep their own time, the first column of their keys after the
 * wallet). In `bench:ingest`'s world that was 49 B a transaction on PostgreSQL and 41 on
 * SQLite. PostgreSQL drops the columns at once and keeps the old rows' bytes until they are
 * rewritten (`VACUUM FULL`); new rows hold nothing for them. SQLite rewrites every row (the
 * freed pages are reused; `VACUUM` shrinks the file). Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  if (caps.name === 'postgres') {
    await sql`alter table transactions drop column block_hash, drop column block_time`.execute(db)
    return
  }
  await sql`alter table transactions drop column block_hash`.execute(db)
  await sql`alter table transactions drop column block_time`.execute(db)
}
