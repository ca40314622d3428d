import type { Kysely } from 'kysely'

/**
 * `indexer_leases.stopped`: why the chain's last lock holder stopped indexing it (a reorg
 * deeper than `finalityDepth`), null while it runs. A process that does not index the chain
 * (an API replica, `scry status`) learns it here: its answers carry `CHAIN_STOPPED` and its
 * `/ready` is 503, as the stopped process's own are. The next holder (a standby, or a
 * restart after `scry reset-chain`, which clears it) writes null. Released: never edit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('indexer_leases').addColumn('stopped', 'text').execute()
}
