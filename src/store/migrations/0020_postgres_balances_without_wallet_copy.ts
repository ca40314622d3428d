import type { Kysely } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * PostgreSQL drops `token_balances_by_wallet` (address, chain_id, token, balance): its
 * planner reads a wallet's balances through the primary key (address, chain_id, token), which
 * leads with the same columns. The index held a second copy of every balance row and, since
 * it includes the balance, took a new entry at every balance change (with the holders index:
 * three index writes per update, two now). SQLite keeps it: without statistics its planner
 * would read the whole chain through `token_balances_holders` (0002). Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  if (caps.name !== 'postgres') return
  await db.schema.dropIndex('token_balances_by_wallet').execute()
}
