import { type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * A transaction's logs move into a column of its row (`transactions.logs`, `packLogs`'
 * layout: per log its index, address, topic count, topics, data length and data) and the
 * `logs` table goes: its only reader listed a transaction's logs, and a row of its own per log
 * (a key of four integers, a primary-key index, and on PostgreSQL a tuple header) cost more
 * than the log. The bytes are built here in SQL, log-index order, as `packLogs` built them
 * until 0023 (which reads this layout with a copy of that reader and packs it anew):
 * `int4send` on PostgreSQL, `unhex(printf(…))` and an ordered `group_concat` (SQLite 3.44 or
 * later; better-sqlite3 12 bundles 3.53) on SQLite. PostgreSQL writes a new version of every
 * transaction with logs (the old ones are space for new rows after vacuum; `VACUUM FULL
 * transactions` gives it back). Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  if (caps.name === 'postgres') {
    await sql`alter table transactions add column logs bytea not null default ''::bytea`.execute(db)
    await sql`
      update transactions t set logs = l.packed
      from (
        select chain_id, block_number, tx_index,
          string_agg(
            int4send(log_index::int4) || address
              || substring(int4send((length(topics) / 32)::int4) from 4 for 1) || topics
              || int4send(length(data)) || data,
            ''::bytea order by log_index
          ) as packed
        from logs
        group by chain_id, block_number, tx_index
      ) l
      where t.chain_id = l.chain_id and t.block_number = l.block_number
        and t.tx_index = l.tx_index
    `.execute(db)
    await sql`alter table transactions alter column logs drop default`.execute(db)
  } else {
    await sql`alter table transactions add column logs blob not null default x''`.execute(db)
    await sql`
      update transactions set logs = coalesce((
        select cast(group_concat(
          unhex(printf('%08x', l.log_index)) || l.address
            || unhex(printf('%02x', length(l.topics) / 32)) || l.topics
            || unhex(printf('%08x', length(l.data))) || l.data,
          '' order by l.log_index
        ) as blob)
        from logs l
        where l.chain_id = transactions.chain_id and l.block_number = transactions.block_number
          and l.tx_index = transactions.tx_index
      ), x'')
    `.execute(db)
  }
  await db.schema.dropTable('logs').execute()
}
