import type { Kysely } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/** Operator-registered ABIs (transaction decoding) and NFT metadata fetched by the worker. */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  const int = caps.intType
  const u256 = caps.u256Type

  await db.schema
    .createTable('abis')
    .addColumn('name', 'text', (c) => c.primaryKey())
    /** The ABI as JSON (array of fragments). */
    .addColumn('abi', 'text', (c) => c.notNull())
    .addColumn('created_at', int, (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('nft_metadata')
    .addColumn('chain_id', int, (c) => c.notNull())
    .addColumn('contract', 'text', (c) => c.notNull())
    .addColumn('token_id', u256, (c) => c.notNull())
    /** tokenURI / uri as the contract returned it ({id} substituted), null when it reverted. */
    .addColumn('uri', 'text')
    .addColumn('name', 'text')
    .addColumn('description', 'text')
    .addColumn('image_url', 'text')
    /** JSON array of attributes. */
    .addColumn('attributes', 'text')
    /** pending | ok | error */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('attempts', int, (c) => c.notNull())
    .addColumn('next_attempt_at', int, (c) => c.notNull())
    .addColumn('fetched_at', int)
    .addPrimaryKeyConstraint('nft_metadata_pk', ['chain_id', 'contract', 'token_id'])
    .execute()
  // A collection's or token's transfers (spam-score market features).
  await db.schema
    .createIndex('transfers_by_token')
    .on('transfers')
    .columns(['chain_id', 'token', 'kind'])
    .execute()

  // The worker's queue: pending rows due first.
  await db.schema
    .createIndex('nft_metadata_due')
    .on('nft_metadata')
    .columns(['status', 'next_attempt_at'])
    .execute()
}
