import type { Kysely } from 'kysely'
import { applyBatch, type BatchWrite } from './applyBatch.ts'
import type { DialectCaps, DialectName } from './dialect.ts'
import { migrateToLatest } from './migrateToLatest.ts'
import { openDatabase } from './openDatabase.ts'
import { parseDbError } from './parseDbError.ts'
import { revertBatches } from './revertBatches.ts'
import type { Database } from './schema.ts'
import { STATE_KEYS, type StateTable } from './stateTables.ts'

export type Checkpoint = { blockNumber: number; blockHash: string }

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
  migrate(): Promise<{ applied: string[] }>
  getCheckpoint(chainId: number): Promise<Checkpoint | undefined>
  getBlockHash(args: { chainId: number; blockNumber: number }): Promise<string | undefined>
  /** Current rows of a state table for the given keys' first columns (see `stateQuery`). */
  readState<T extends StateTable>(args: {
    table: T
    chainId: number
    /** Values of the table's first key column (address/owner; for tokens: token address). */
    ids: readonly string[]
  }): Promise<Database[T][]>
  /** Addresses holding a token (any balance row), for re-reading rebasing tokens. */
  tokenHolders(args: { chainId: number; token: string }): Promise<string[]>
  applyBatch(batch: BatchWrite): Promise<void>
  /** See `revertBatches`: returns the block the store landed on. */
  revert(args: { chainId: number; toBlock: number }): Promise<{ blockNumber: number }>
  /** Forgets undo entries of batches that are final (ending at or below `belowBlock`). */
  pruneUndo(args: { chainId: number; belowBlock: number }): Promise<void>
  close(): Promise<void>
}

const READ_CHUNK = 500

export function createStore({ url, poolSize }: { url: string; poolSize?: number }): Store {
  const { db, caps } = openDatabase({ url, ...(poolSize ? { poolSize } : {}) })
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
            // Before the first migration the table is missing; only reaching the server matters.
            if (/no such table|does not exist/i.test(String(e?.message))) return
            throw e
          })
      }),
    migrate: () => guard('migrate', () => migrateToLatest({ db, caps })),
    getCheckpoint: (chainId) =>
      guard('read checkpoint', async () => {
        const row = await db
          .selectFrom('checkpoints')
          .select(['block_number', 'block_hash'])
          .where('chain_id', '=', chainId)
          .executeTakeFirst()
        return row ? { blockNumber: row.block_number, blockHash: row.block_hash } : undefined
      }),
    getBlockHash: ({ chainId, blockNumber }) =>
      guard('read block', async () => {
        const row = await db
          .selectFrom('blocks')
          .select('hash')
          .where('chain_id', '=', chainId)
          .where('number', '=', blockNumber)
          .executeTakeFirst()
        return row?.hash
      }),
    readState: ({ table, chainId, ids }) =>
      guard(`read ${table}`, async () => {
        // biome-ignore lint/suspicious/noExplicitAny: table is one of the state tables.
        const anyDb = db as Kysely<any>
        const first = STATE_KEYS[table].find((k) => k !== 'chain_id') as string
        const out: Database[typeof table][] = []
        const unique = [...new Set(ids)]
        for (let i = 0; i < unique.length; i += READ_CHUNK) {
          const rows = await anyDb
            .selectFrom(table)
            .selectAll()
            .where('chain_id', '=', chainId)
            .where(first, 'in', unique.slice(i, i + READ_CHUNK))
            .execute()
          out.push(...(rows as Database[typeof table][]))
        }
        return out
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
    applyBatch: (batch) =>
      guard(`commit blocks ${batch.fromBlock}-${batch.toBlock}`, () =>
        db.transaction().execute((trx) => applyBatch({ trx, caps, batch })),
      ),
    revert: ({ chainId, toBlock }) =>
      guard(`revert to block ${toBlock}`, () =>
        db.transaction().execute((trx) => revertBatches({ trx, caps, chainId, toBlock })),
      ),
    pruneUndo: ({ chainId, belowBlock }) =>
      guard('prune undo', async () => {
        await db
          .deleteFrom('undo_log')
          .where('chain_id', '=', chainId)
          .where('to_block', '<=', belowBlock)
          .execute()
      }),
    close: () => db.destroy(),
  }
}
