import { type Kysely, sql, type Transaction } from 'kysely'
import { ConfigError } from '../internal/errors.ts'
import { sqliteFilePath } from '../utils/sqliteFilePath.ts'
import { applyBatch, type BatchWrite } from './applyBatch.ts'
import { createRowWriter } from './createRowWriter.ts'
import type { DialectCaps, DialectName } from './dialect.ts'
import { migrateToLatest, pendingMigrations, refuseNewerSchema } from './migrateToLatest.ts'
import { databaseDialect, openDatabase } from './openDatabase.ts'
import { parseDbError } from './parseDbError.ts'
import { type RevertHook, revertBatches } from './revertBatches.ts'
import type { Database } from './schema.ts'
import { createWalCheckpointer } from './sqlite/createWalCheckpointer.ts'
import type { StateTable } from './stateTables.ts'

export type Checkpoint = { blockNumber: number; blockHash: string }

/**
 * Runs first in a chain write's own transaction and throws if this process may no longer
 * write the chain (the standby lock's fencing, `holdChainLease`): nothing of the write lands.
 */
export type Fence = (trx: Transaction<Database>) => Promise<void>

/**
 * The store contract: one interface, SQLite and PostgreSQL behind it. Writers commit whole
 * batches; readers (the API, status) use `db` directly with index-backed queries.
 */
export type Store = {
  dialect: DialectName
  caps: DialectCaps
  db: Kysely<Database>
  /** Fails with a typed error when the database cannot be reached. */
  ping(): Promise<void>
  /**
   * Applies pending migrations; `onStart` hears each one's name as it begins, `onProgress`
   * the rows done (of a total, where counted) after each chunk of one that works in chunks.
   */
  migrate(options?: {
    onStart?: (name: string) => void
    onProgress?: (name: string, done: number, total: number | undefined) => void
  }): Promise<{ applied: string[] }>
  getCheckpoint(chainId: number): Promise<Checkpoint | undefined>
  /** Stored block hashes of `from..to` (inclusive) by number; heights not stored are absent. */
  getBlockHashes(args: { chainId: number; from: number; to: number }): Promise<Map<number, string>>
  /**
   * Current rows of a state table matching any of `keys`: each names the same key columns
   * (chain aside), e.g. `{ address, token }` for token balances, `{ owner }` for every
   * approval of an owner. Reads exactly the rows asked for, through the primary key.
   */
  readState<T extends StateTable>(args: {
    table: T
    chainId: number
    keys: readonly StateKeyPrefix[]
  }): Promise<Database[T][]>
  /** Addresses holding a token (any balance row), for re-reading rebasing tokens. */
  tokenHolders(args: { chainId: number; token: string }): Promise<string[]>
  applyBatch(batch: BatchWrite, fence?: Fence): Promise<void>
  /** See `revertBatches`: returns the block the store landed on. */
  revert(args: {
    chainId: number
    toBlock: number
    alongside?: RevertHook
    fence?: Fence
  }): Promise<{ blockNumber: number }>
  /** Forgets undo entries of batches that are final (ending at or below `belowBlock`). */
  pruneUndo(args: { chainId: number; belowBlock: number }): Promise<void>
  close(): Promise<void>
}

/** Some key columns of a state table (not `chain_id`) and their values. */
export type StateKeyPrefix = Readonly<Record<string, string>>

/** The state reads of an indexing batch: the store's, or the store with pending batches. */
export type StateReader = Pick<Store, 'readState' | 'tokenHolders'>

export function createStore({
  url,
  poolSize,
  mustExist = false,
}: {
  url: string
  poolSize?: number
  /**
   * Commands that only read or add to a database `start` or `migrate` made: a SQLite file that
   * is not there, or a database without Scry's tables (an empty PostgreSQL database, a wrong
   * name in the URL), is an error at `ping` instead of a new, empty Scry database, and so is
   * one with migrations pending (they are `migrate`'s and `start`'s to apply).
   */
  mustExist?: boolean
}): Store {
  const { db, caps, sqlite } = openDatabase({ url, mustExist, ...(poolSize ? { poolSize } : {}) })
  const writer = createRowWriter({ caps, db, sqlite })
  const checkpointer =
    sqlite && !sqlite.memory ? createWalCheckpointer({ sqlite, file: sqlite.name }) : undefined
  /** A chain write's transaction; a SQLite file's log is then copied back on another thread. */
  const chainWrite = async <T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> => {
    const result = await db.transaction().execute(work)
    checkpointer?.request()
    return result
  }
  const guard = async <T>(context: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      throw parseDbError(error, context)
    }
  }

  return {
    dialect: caps.name,
    caps,
    db,
    ping: () =>
      guard('connect', async () => {
        await db
          .selectFrom('checkpoints')
          .select('chain_id')
          .limit(1)
          .execute()
          .catch(async (e) => {
            // Before the first migration the table is missing; only reaching the server matters
            // (not "role … does not exist" or "database … does not exist": those are refusals).
            if (e?.code !== '42P01' && !/no such table/i.test(String(e?.message))) throw e
            if (mustExist) {
              throw new ConfigError(`There is no Scry database at ${databaseName(url)}.`, {
                details:
                  'It has no Scry tables: `scry start` or `scry migrate` makes them. Check --database (or SCRY_DATABASE, database in the config file).',
              })
            }
          })
        if (!mustExist) return
        await refuseNewerSchema({ db })
        // Commands that work beside running servers do not migrate under them.
        const pending = await pendingMigrations({ db })
        if (pending.length > 0) {
          throw new ConfigError(
            `The database at ${databaseName(url)} needs ${pending.length} migration(s) of this version of Scry: ${pending.join(', ')}.`,
            {
              details:
                'Run `scry migrate` (SQLite: with no `scry start` running on it; PostgreSQL: then restart the servers on this version), or use the Scry version the database was migrated with.',
            },
          )
        }
      }),
    migrate: (options = {}) => guard('migrate', () => migrateToLatest({ db, caps, ...options })),
    getCheckpoint: (chainId) =>
      guard('read checkpoint', async () => {
        const row = await db
          .selectFrom('checkpoints')
          .select(['block_number', 'block_hash'])
          .where('chain_id', '=', chainId)
          .executeTakeFirst()
        return row ? { blockNumber: row.block_number, blockHash: row.block_hash } : undefined
      }),
    getBlockHashes: ({ chainId, from, to }) =>
      guard('read blocks', async () => {
        const rows = await db
          .selectFrom('blocks')
          .select(['number', 'hash'])
          .where('chain_id', '=', chainId)
          .where('number', '>=', from)
          .where('number', '<=', to)
          .execute()
        return new Map(rows.map((r) => [r.number, r.hash]))
      }),
    readState: ({ table, chainId, keys }) =>
      guard(`read ${table}`, async () => {
        const columns = Object.keys(keys[0] ?? {})
        const unique = [
          ...new Map(keys.map((k) => [columns.map((c) => k[c]).join('|'), k])).values(),
        ]
        if (unique.length === 0) return []
        if (caps.name === 'postgres') {
          // One join against unnest of the keys: PostgreSQL plans a long `(a, b) in (…)` list
          // of row values poorly (tens of milliseconds per few hundred keys).
          const keyed = unique.map((k) => ({ chain_id: chainId, ...k }))
          return (await writer.select(db, table, keyed)) as Database[typeof table][]
        }
        // The keys as one JSON array, each a probe of the table's key: the same short
        // statement however many keys (a list of row values made Kysely build, and SQLite
        // compile, a statement of thousands of values for every read).
        const matches = sql.join(
          columns.map((c, i) => sql`t.${sql.ref(c)} = j.value ->> ${sql.lit(i)}`),
          sql` and `,
        )
        const keysJson = JSON.stringify(unique.map((k) => columns.map((c) => k[c])))
        const { rows } = await sql<Database[typeof table]>`select t.*
          from json_each(${keysJson}) as j cross join ${sql.table(table)} as t
          where t.chain_id = ${chainId} and ${matches}`.execute(db)
        return rows
      }),
    tokenHolders: ({ chainId, token }) =>
      guard('read token holders', async () => {
        const rows = await db
          .selectFrom('token_balances')
          .select('address')
          .where('chain_id', '=', chainId)
          .where('token', '=', token)
          .execute()
        return rows.map((r) => r.address)
      }),
    applyBatch: (batch, fence) =>
      guard(`commit blocks ${batch.fromBlock}-${batch.toBlock}`, () =>
        chainWrite(async (trx) => {
          await fence?.(trx)
          await applyBatch({ trx, writer, batch })
        }),
      ),
    revert: ({ chainId, toBlock, alongside, fence }) =>
      guard(`revert to block ${toBlock}`, () =>
        chainWrite(async (trx) => {
          await fence?.(trx)
          return revertBatches({
            trx,
            caps,
            writer,
            chainId,
            toBlock,
            ...(alongside ? { alongside } : {}),
          })
        }),
      ),
    pruneUndo: ({ chainId, belowBlock }) =>
      guard('prune undo', async () => {
        await db
          .deleteFrom('undo_log')
          .where('chain_id', '=', chainId)
          .where('to_block', '<=', belowBlock)
          .execute()
        checkpointer?.request()
      }),
    close: async () => {
      await checkpointer?.close()
      await db.destroy()
    },
  }
}

/** Where a database setting points, for messages: the file, or host and name without user info. */
function databaseName(url: string): string {
  if (databaseDialect(url) === 'sqlite') return sqliteFilePath(url)
  try {
    const { protocol, host, pathname } = new URL(url)
    return `${protocol}//${host}${pathname}`
  } catch {
    return '[invalid url]'
  }
}
