import { type Kysely, sql } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * `defi_tokens`: tokens the indexer found to be DeFi positions' tokens (for now ERC4626 vaults,
 * `kind` `erc4626`, `underlying` = `asset()`), a state table written by the batch that first
 * sees the token and undone on reorgs. `defi_token_probes`: tokens stored before this
 * migration, which the indexer probes once in the background (`probeStoredTokens`) and
 * deletes from here; a migration cannot ask the node. Released: never edit.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  const int = caps.intType
  await db.schema
    .createTable('defi_tokens')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('underlying', 'text')
    .addColumn('block_number', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('defi_tokens_pk', ['chain_id', 'address'])
    .execute()
  await db.schema
    .createTable('defi_token_probes')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('defi_token_probes_pk', ['chain_id', 'address'])
    .execute()
  await sql`
    insert into defi_token_probes (chain_id, address)
    select chain_id, address from tokens where standard = 'erc20'
  `.execute(db)
}
