import type { Kysely } from 'kysely'
import type { DialectCaps } from '../dialect.ts'

/** Accounts, API keys and metering; wallet-history indexes the API lists across chains. */
export async function up(db: Kysely<unknown>, caps: DialectCaps): Promise<void> {
  const int = caps.intType

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    /** Compute units per calendar month (UTC); null = unlimited. */
    .addColumn('cu_quota', int)
    .addColumn('created_at', int, (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    /** SHA-256 of the key, hex: the key itself is never stored. */
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    /** Requests per second; null = unlimited. */
    .addColumn('rps', int)
    .addColumn('created_at', int, (c) => c.notNull())
    .addColumn('revoked_at', int)
    .execute()

  await db.schema
    .createTable('usage')
    .addColumn('account_id', 'text', (c) => c.notNull())
    /** Calendar month, `YYYY-MM` (UTC). */
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('cu_used', int, (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_pk', ['account_id', 'period'])
    .execute()

  // A wallet's history across chains, newest first: keyset scans on (address, time, …).
  await db.schema
    .createIndex('activity_by_time')
    .on('activity')
    .columns(['address', 'block_time', 'chain_id', 'block_number', 'seq'])
    .execute()
  // A wallet's token balances with the balance in the index: without it SQLite (which keeps no
  // statistics) prefers token_balances_holders on chain_id alone and reads the whole chain.
  await db.schema
    .createIndex('token_balances_by_wallet')
    .on('token_balances')
    .columns(['address', 'chain_id', 'token', 'balance'])
    .execute()
  await db.schema
    .createIndex('address_transactions_by_time')
    .on('address_transactions')
    .columns(['address', 'block_time', 'chain_id', 'block_number', 'tx_index'])
    .execute()
}
