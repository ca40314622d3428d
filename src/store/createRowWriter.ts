import type { Database as SqliteDatabase } from 'better-sqlite3'
import type { Kysely, Transaction } from 'kysely'
import type { DialectCaps } from './dialect.ts'
import { createPostgresRowWriter } from './postgres/createPostgresRowWriter.ts'
import type { Database } from './schema.ts'
import { createSqliteRowWriter } from './sqlite/createSqliteRowWriter.ts'

export type Row = Record<string, unknown>

/** Every column any of the rows sets, in first-seen order (a missing value is null). */
export function columnsOf(rows: readonly Row[]): string[] {
  // Rows are mostly built by one function, with the same keys in the same order: comparing
  // each row's keys with the first's is ~20× cheaper than adding every key to a set.
  const first = rows[0]
  if (first === undefined) return []
  const columns = Object.keys(first)
  for (let j = 1; j < rows.length; j++) {
    if (!sameKeys(Object.keys(rows[j] as Row), columns)) return unionOfColumns(rows)
  }
  return columns
}

function sameKeys(keys: readonly string[], columns: readonly string[]): boolean {
  if (keys.length !== columns.length) return false
  for (let i = 0; i < keys.length; i++) if (keys[i] !== columns[i]) return false
  return true
}

function unionOfColumns(rows: readonly Row[]): string[] {
  const columns = new Set<string>()
  for (const row of rows) for (const column of Object.keys(row)) columns.add(column)
  return [...columns]
}

/**
 * Bulk row operations inside a store transaction, each the fastest form its engine has:
 * SQLite runs statements prepared once per table and column set, inserts and upserts many
 * rows a run (no SQL is compiled per batch, and SQLite has no round trips); PostgreSQL sends
 * each operation as one statement over `unnest` of column arrays, however many rows (no
 * per-row round trips, three parameters instead of thousands).
 */
export type RowWriter = {
  /**
   * `shape`: every row's columns, when the caller knows them (rows of one builder function,
   * same keys in the same order); otherwise `columnsOf(rows)` reads each row's keys.
   */
  insert(
    trx: Transaction<Database>,
    table: string,
    rows: readonly Row[],
    shape?: readonly string[],
  ): Promise<void>
  /** Insert, or update every other column where a row with the same `keys` exists. */
  upsert(
    trx: Transaction<Database>,
    table: string,
    keys: readonly string[],
    rows: readonly Row[],
  ): Promise<void>
  /** Deletes the rows whose key columns equal one of `keys` (each names the same columns). */
  delete(trx: Transaction<Database>, table: string, keys: readonly Row[]): Promise<void>
  /** The rows whose key columns equal one of `keys`, as stored (in a transaction or not). */
  select(db: Kysely<Database>, table: string, keys: readonly Row[]): Promise<Row[]>
}

export function createRowWriter({
  caps,
  db,
  sqlite,
}: {
  caps: DialectCaps
  db: Kysely<Database>
  sqlite: SqliteDatabase | undefined
}): RowWriter {
  switch (caps.name) {
    case 'sqlite':
      if (!sqlite) throw new Error('createRowWriter: the SQLite handle is missing')
      return createSqliteRowWriter({ sqlite })
    case 'postgres':
      return createPostgresRowWriter({ db })
    default: {
      const never: never = caps.name
      throw new Error(`unknown dialect ${String(never)}`)
    }
  }
}

/** `RowWriter.insert` was told a shape that one of its rows does not have: a bug. */
export class RowShapeError extends Error {
  constructor(key: string) {
    super(`${key}: a row's columns differ from the shape given for them.`)
  }
}
