import type { Kysely } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/**
 * Solana/Eclipse: what is immutable or slow to read from the node (DESIGN.md "SVM"):
 * finalized transactions, mint facts with metadata, and prices. Wallet-scoped data is not
 * kept: balances and signature lists come from the node per request.
 */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  const int = caps.intType

  await db.schema
    .createTable('svm_tokens')
    .addColumn('chain', 'text', (c) => c.notNull())
    .addColumn('mint', 'text', (c) => c.notNull())
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    /** u64 as decimal text. */
    .addColumn('supply', 'text', (c) => c.notNull())
    .addColumn('mint_authority', 'text')
    .addColumn('name', 'text')
    .addColumn('symbol', 'text')
    .addColumn('uri', 'text')
    /** The Metaplex metadata account, when the metadata came from one. */
    .addColumn('metadata_address', 'text')
    /** Unix milliseconds of the last read from the node. */
    .addColumn('refreshed_at', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('svm_tokens_pk', ['chain', 'mint'])
    .execute()

  await db.schema
    .createTable('svm_prices')
    .addColumn('chain', 'text', (c) => c.notNull())
    .addColumn('mint', 'text', (c) => c.notNull())
    /** null: no pool route to USDC was found (kept so that it is not searched per request). */
    .addColumn('price_usd', 'double precision')
    .addColumn('liquidity_usd', 'double precision')
    .addColumn('pool_type', 'text')
    .addColumn('pool_address', 'text')
    .addColumn('refreshed_at', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('svm_prices_pk', ['chain', 'mint'])
    .execute()

  await db.schema
    .createTable('svm_transactions')
    .addColumn('chain', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('slot', int, (c) => c.notNull())
    /** Unix seconds, null when the node did not know. */
    .addColumn('block_time', int)
    /** The node's getTransaction JSON, as text (u64 values exact). */
    .addColumn('raw', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('svm_transactions_pk', ['chain', 'signature'])
    .execute()
}
