import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import { ConfigError } from '../internal/errors.ts'
import { sqliteFilePath } from '../utils/sqliteFilePath.ts'
import { type DialectCaps, type DialectName, dialectCaps } from './dialect.ts'
import type { Database } from './schema.ts'

export type OpenDatabase = {
  db: Kysely<Database>
  caps: DialectCaps
  /** The SQLite connection under `db` (for prepared bulk writes); undefined on PostgreSQL. */
  sqlite: SQLite.Database | undefined
}

/** `postgres://…` / `postgresql://…` opens PostgreSQL; anything else is a SQLite file path. */
export function databaseDialect(url: string): DialectName {
  return /^postgres(ql)?:\/\//i.test(url) ? 'postgres' : 'sqlite'
}

export function openDatabase({
  url,
  poolSize = 10,
}: {
  url: string
  poolSize?: number
}): OpenDatabase {
  const name = databaseDialect(url)
  const caps = dialectCaps(name)
  if (name === 'postgres') {
    const pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      // int8 columns (chain ids, block numbers, unix times) fit in a JS number.
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === 20
            ? (value: string) => Number(value)
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    })
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => {})
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      caps,
      sqlite: undefined,
    }
  }
  const file = sqliteFilePath(url)
  if (file === '') throw new ConfigError('The database path is empty.')
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const sqlite = new SQLite(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('busy_timeout = 5000')
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }),
    caps,
    sqlite,
  }
}
