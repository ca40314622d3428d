import { type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * `activity` and `address_transactions` lose their (chain, block) indexes, which only reverts
 * used and which cost about as much disk as the rows' keys: a kept batch now names each of its
 * rows in `undo_log` and a revert deletes them by key (`KEYED_HISTORY`). Batches kept before
 * this migration get those entries here, from their markers. Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  const keys = {
    activity: ['address', 'block_time', 'chain_id', 'block_number', 'seq'],
    address_transactions: ['address', 'block_time', 'chain_id', 'block_number', 'tx_index'],
  }
  for (const [table, columns] of Object.entries(keys)) {
    const pairs = sql.join(columns.map((c) => sql`${sql.lit(c)}, r.${sql.ref(c)}`))
    const key =
      caps.name === 'sqlite' ? sql`json_object(${pairs})` : sql`json_build_object(${pairs})::text`
    await sql`
      insert into undo_log (chain_id, from_block, to_block, table_name, row_key, prev)
      select m.chain_id, m.from_block, m.to_block, ${sql.lit(table)}, ${key}, null
      from undo_log m
      join ${sql.table(table)} r on r.chain_id = m.chain_id
        and r.block_number between m.from_block and m.to_block
      where m.table_name = ''
    `.execute(db)
  }
  await db.schema.dropIndex('activity_block').execute()
  await db.schema.dropIndex('address_transactions_block').execute()
}
