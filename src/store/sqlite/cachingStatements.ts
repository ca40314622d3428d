import type { Database as SqliteDatabase, Statement } from 'better-sqlite3'
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely'

/** Statements kept, the least recently used dropped first. */
const KEPT = 256

/**
 * The SQLite handle as Kysely's driver sees it, with its statements prepared once per SQL
 * text: the driver prepares a statement for every query it runs (`begin`, `commit`, every
 * state read of every batch), and the same few texts come again and again. A kept statement
 * is safe to run again: the driver runs one query at a time on the connection and always runs
 * a statement to its end (`all` or `run`), and SQLite prepares it again by itself when the
 * schema has changed.
 */
export function cachingStatements(sqlite: SqliteDatabase): KyselySqliteDatabase {
  const statements = new Map<string, Statement>()
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql)
      if (statement) {
        // Most recently used last, so the first key is the one to drop.
        statements.delete(sql)
      } else {
        statement = sqlite.prepare(sql)
        if (statements.size >= KEPT) {
          const oldest = statements.keys().next()
          if (!oldest.done) statements.delete(oldest.value)
        }
      }
      statements.set(sql, statement)
      return statement
    },
  }
}
