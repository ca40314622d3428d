import type { Kysely } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * Which process writes each chain (PostgreSQL standby indexers, `holdChainLease`): the holder
 * of the chain's advisory lock writes its owner token here, and every batch commit checks it
 * under a row lock; its heartbeat reports the node's head (for status and `/ready` in
 * processes that do not index the chain). Also what `/v1/status` and `scry status` show.
 * Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  await db.schema
    .createTable('indexer_leases')
    .addColumn('chain_id', caps.intType, (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', caps.intType, (c) => c.notNull())
    .addColumn('since', caps.intType, (c) => c.notNull())
    .addColumn('node_head', caps.intType)
    .addColumn('node_head_at', caps.intType)
    .execute()
}
