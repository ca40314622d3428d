import type { Database as SqliteDatabase, Statement } from 'better-sqlite3'
import { columnsOf, type Row, RowShapeError, type RowWriter } from '../createRowWriter.ts'

/**
 * Values bound to one run of a multi-row statement (SQLite allows 32,766). Each run is a call
 * into better-sqlite3 and a statement reset: a row to a run made `activity`'s inserts take a
 * third more time, `undo_log`'s twice as much (docs/indexer.md).
 */
const VALUES_PER_RUN = 500

const id = (name: string) => `"${name.replaceAll('"', '""')}"`

/**
 * SQLite's `RowWriter`: statements prepared once per table and column set (inserts and
 * upserts take many rows a run), on the store's own connection (so inside the transaction
 * Kysely holds open). Row values are text, numbers, bytes and nulls, which SQLite binds as
 * they are.
 */
export function createSqliteRowWriter({ sqlite }: { sqlite: SqliteDatabase }): RowWriter {
  const statements = new Map<string, Statement>()
  const prepared = (key: string, text: () => string) => {
    let statement = statements.get(key)
    if (!statement) {
      statement = sqlite.prepare(text())
      statements.set(key, statement)
    }
    return statement
  }
  const where = (columns: readonly string[]) => columns.map((c) => `${id(c)} = ?`).join(' and ')
  const values = (row: Row, columns: readonly string[]) => columns.map((c) => row[c] ?? null)
  /**
   * Runs the statement `text` makes of a list of value tuples over `rows`: as many rows to a
   * run as `VALUES_PER_RUN` values allow, the rest one to a run. `shaped` rows have exactly
   * `columns` as keys, in order (`RowWriter.insert`'s `shape`): their values are taken with
   * `Object.values` instead of a load by name per value (a site that sees every table's rows
   * and columns; ~3 % of `applyBatch`'s CPU).
   */
  const runInChunks = (
    key: string,
    rows: readonly Row[],
    columns: readonly string[],
    text: (tuples: string) => string,
    shaped = false,
  ) => {
    const tuple = `(${columns.map(() => '?').join(', ')})`
    const perRun = Math.max(1, Math.floor(VALUES_PER_RUN / columns.length))
    let i = 0
    if (rows.length >= perRun) {
      const many = prepared(`${key}|${perRun}`, () => text(Array(perRun).fill(tuple).join(', ')))
      const args: unknown[] = new Array(perRun * columns.length)
      for (; i + perRun <= rows.length; i += perRun) {
        let k = 0
        for (let j = i; j < i + perRun; j++) {
          const row = rows[j] as Row
          if (shaped) {
            for (const value of Object.values(row)) args[k++] = value ?? null
            // A row of another shape would put its values under the wrong columns.
            if (k !== (j - i + 1) * columns.length) throw new RowShapeError(key)
          } else for (const c of columns) args[k++] = row[c] ?? null
        }
        many.run(args)
      }
    }
    if (i === rows.length) return
    const one = prepared(key, () => text(tuple))
    for (; i < rows.length; i++) one.run(values(rows[i] as Row, columns))
  }

  return {
    async insert(_trx, table, rows, shape) {
      if (rows.length === 0) return
      const columns = shape ?? columnsOf(rows)
      runInChunks(
        `insert|${table}|${columns}`,
        rows,
        columns,
        (tuples) => `insert into ${id(table)} (${columns.map(id).join(', ')}) values ${tuples}`,
        shape !== undefined,
      )
    },
    async upsert(_trx, table, keys, rows) {
      if (rows.length === 0) return
      const columns = columnsOf(rows)
      // Rows of one statement are written in turn: a later row sees an earlier one's key.
      runInChunks(`upsert|${table}|${keys}|${columns}`, rows, columns, (tuples) => {
        const updates = columns.filter((c) => !keys.includes(c))
        const set = updates.map((c) => `${id(c)} = excluded.${id(c)}`).join(', ')
        const onConflict = updates.length > 0 ? `do update set ${set}` : 'do nothing'
        return `insert into ${id(table)} (${columns.map(id).join(', ')}) values ${tuples}
          on conflict (${keys.map(id).join(', ')}) ${onConflict}`
      })
    },
    async delete(_trx, table, keys) {
      if (keys.length === 0) return
      const columns = columnsOf(keys)
      const statement = prepared(
        `delete|${table}|${columns}`,
        () => `delete from ${id(table)} where ${where(columns)}`,
      )
      for (const key of keys) statement.run(values(key, columns))
    },
    async select(_trx, table, keys) {
      if (keys.length === 0) return []
      const columns = columnsOf(keys)
      const statement = prepared(
        `select|${table}|${columns}`,
        () => `select * from ${id(table)} where ${where(columns)}`,
      )
      return keys.flatMap((key) => statement.all(values(key, columns)) as Row[])
    },
  }
}
