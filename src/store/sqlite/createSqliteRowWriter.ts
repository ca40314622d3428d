import type { Database as SqliteDatabase, Statement } from 'better-sqlite3'
import { columnsOf, type Row, type RowWriter } from '../createRowWriter.ts'

const id = (name: string) => `"${name.replaceAll('"', '""')}"`

/**
 * SQLite's `RowWriter`: statements prepared once per table and column set, run per row on
 * the store's own connection (so inside the transaction Kysely holds open). Row values are
 * text, numbers and nulls, which SQLite binds as they are.
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

  return {
    async insert(_trx, table, rows) {
      if (rows.length === 0) return
      const columns = columnsOf(rows)
      const statement = prepared(`insert|${table}|${columns}`, () => {
        const list = columns.map(id).join(', ')
        return `insert into ${id(table)} (${list}) values (${columns.map(() => '?').join(', ')})`
      })
      for (const row of rows) statement.run(values(row, columns))
    },
    async upsert(_trx, table, keys, rows) {
      if (rows.length === 0) return
      const columns = columnsOf(rows)
      const statement = prepared(`upsert|${table}|${keys}|${columns}`, () => {
        const updates = columns.filter((c) => !keys.includes(c))
        const set = updates.map((c) => `${id(c)} = excluded.${id(c)}`).join(', ')
        return `insert into ${id(table)} (${columns.map(id).join(', ')}) values (${columns
          .map(() => '?')
          .join(', ')}) on conflict (${keys.map(id).join(', ')}) ${
          updates.length > 0 ? `do update set ${set}` : 'do nothing'
        }`
      })
      for (const row of rows) statement.run(values(row, columns))
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
