import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely'
import { ConfigError } from '../internal/errors.ts'
import type { DialectCaps } from './dialect.ts'
import * as m0001 from './migrations/0001_initial.ts'
import * as m0002 from './migrations/0002_api.ts'
import * as m0003 from './migrations/0003_metadata.ts'
import * as m0004 from './migrations/0004_prices.ts'
import * as m0005 from './migrations/0005_webhooks.ts'
import * as m0006 from './migrations/0006_svm.ts'
import * as m0007 from './migrations/0007_key_profile.ts'
import * as m0008 from './migrations/0008_token_search.ts'
import * as m0009 from './migrations/0009_approvals.ts'
import * as m0010 from './migrations/0010_indexer_leases.ts'
import * as m0011 from './migrations/0011_defi_tokens.ts'
import * as m0012 from './migrations/0012_compact_history.ts'
import * as m0013 from './migrations/0013_keyed_history_undo.ts'
import * as m0014 from './migrations/0014_history_bytes.ts'
import * as m0015 from './migrations/0015_compact_u256.ts'
import * as m0016 from './migrations/0016_defi_token_pool.ts'
import * as m0017 from './migrations/0017_history_addresses.ts'
import * as m0018 from './migrations/0018_relative_prices.ts'
import * as m0019 from './migrations/0019_address_transactions_beyond_activity.ts'
import * as m0020 from './migrations/0020_postgres_balances_without_wallet_copy.ts'
import * as m0021 from './migrations/0021_transactions_without_block_fields.ts'
import * as m0022 from './migrations/0022_logs_in_transactions.ts'
import * as m0023 from './migrations/0023_packed_calldata_and_logs.ts'
import * as m0024 from './migrations/0024_postgres_history_alignment.ts'
import * as m0025 from './migrations/0025_holder_counts_per_statement.ts'
import * as m0026 from './migrations/0026_indexer_lease_stops.ts'
import { StoreError } from './parseDbError.ts'
import type { Database } from './schema.ts'

/** How far a long migration is: rows done, of `total` where it counted them. */
export type MigrationProgress = (done: number, total: number | undefined) => void

type MigrationModule = {
  up: (db: Kysely<unknown>, caps: DialectCaps, progress: MigrationProgress) => Promise<void>
}

/** Ordered, versioned migrations. Released ones are never edited. */
const MIGRATIONS: Record<string, MigrationModule> = {
  '0001_initial': m0001,
  '0002_api': m0002,
  '0003_metadata': m0003,
  '0004_prices': m0004,
  '0005_webhooks': m0005,
  '0006_svm': m0006,
  '0007_key_profile': m0007,
  '0008_token_search': m0008,
  '0009_approvals': m0009,
  '0010_indexer_leases': m0010,
  '0011_defi_tokens': m0011,
  '0012_compact_history': m0012,
  '0013_keyed_history_undo': m0013,
  '0014_history_bytes': m0014,
  '0015_compact_u256': m0015,
  '0016_defi_token_pool': m0016,
  '0017_history_addresses': m0017,
  '0018_relative_prices': m0018,
  '0019_address_transactions_beyond_activity': m0019,
  '0020_postgres_balances_without_wallet_copy': m0020,
  '0021_transactions_without_block_fields': m0021,
  '0022_logs_in_transactions': m0022,
  '0023_packed_calldata_and_logs': m0023,
  '0024_postgres_history_alignment': m0024,
  '0025_holder_counts_per_statement': m0025,
  '0026_indexer_lease_stops': m0026,
}

export async function migrateToLatest({
  db,
  caps,
  upTo,
  onStart,
  onProgress,
}: {
  db: Kysely<Database>
  caps: DialectCaps
  /** Stop after this migration (tests of a later one start from the schema before it). */
  upTo?: string
  /** Called as each pending migration starts (some rewrite whole tables and take a while). */
  onStart?: (name: string) => void
  /** Called by migrations that work in chunks, after each chunk (0023). */
  onProgress?: (name: string, done: number, total: number | undefined) => void
}): Promise<{ applied: string[] }> {
  if (upTo !== undefined && !(upTo in MIGRATIONS)) throw new Error(`No migration ${upTo}`)
  // Kysely runs a migration in a transaction only where its adapter calls DDL transactional
  // (PostgreSQL). SQLite's DDL is transactional too: wrap it here, so that a migration that
  // rebuilds tables (copy, drop, rename) is all or nothing on both engines.
  const wrap = !db.getExecutor().adapter.supportsTransactionalDdl
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {}
      for (const [name, module] of Object.entries(MIGRATIONS)) {
        out[name] = {
          up: async (k) => {
            onStart?.(name)
            const progress: MigrationProgress = (done, total) => onProgress?.(name, done, total)
            if (!wrap) return module.up(k, caps, progress)
            await sql`begin`.execute(k)
            try {
              await module.up(k, caps, progress)
              await sql`commit`.execute(k)
            } catch (error) {
              await sql`rollback`.execute(k)
              throw error
            }
          },
        }
      }
      return out
    },
  }
  await refuseNewerSchema({ db })
  const migrator = new Migrator({ db, provider, migrationTableName: 'scry_migrations' })
  const { error, results = [] } =
    upTo === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(upTo)
  if (error) {
    const failed = results.find((r) => r.status === 'Error')
    throw new StoreError(`Database migration ${failed?.migrationName ?? ''} failed.`, {
      details: error instanceof Error ? error.message : String(error),
      cause: error,
    })
  }
  return { applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName) }
}

/** Names of the migrations this version has that the database has not applied, in order. */
export async function pendingMigrations({ db }: { db: Kysely<Database> }): Promise<string[]> {
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries(Object.keys(MIGRATIONS).map((name) => [name, { up: async () => {} }])),
  }
  const migrator = new Migrator({ db, provider, migrationTableName: 'scry_migrations' })
  return (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name)
}

/**
 * Refuses a database that a newer Scry migrated (after a rollback to an older release): this
 * version would read its tables wrong, and Kysely's own message names none of that.
 */
export async function refuseNewerSchema({ db }: { db: Kysely<Database> }): Promise<void> {
  const rows = await sql<{ name: string }>`select name from scry_migrations`
    .execute(db)
    .then((r) => r.rows)
    .catch((error: unknown) => {
      // No migrations table yet: a new database.
      const code = (error as { code?: unknown })?.code
      if (code === '42P01' || /no such table/i.test(String((error as Error)?.message))) return []
      throw error
    })
  const unknown = rows.map((r) => r.name).filter((name) => !(name in MIGRATIONS))
  if (unknown.length === 0) return
  throw new ConfigError(
    `The database was migrated by a newer Scry: this version does not know its migration(s) ${unknown.sort().join(', ')}.`,
    {
      details:
        'Run the Scry version the database was migrated with (or a newer one); an older version would read its tables wrong.',
    },
  )
}
