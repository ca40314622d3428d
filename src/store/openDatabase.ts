import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import { ConfigError } from '../internal/errors.ts'
import { makeDirectorySync } from '../utils/makeDirectorySync.ts'
import { sqliteFilePath } from '../utils/sqliteFilePath.ts'
import { type DialectCaps, type DialectName, dialectCaps } from './dialect.ts'
import type { Database } from './schema.ts'
import { cachingStatements } from './sqlite/cachingStatements.ts'

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
  mustExist = false,
}: {
  url: string
  poolSize?: number
  /** A SQLite file that is not there is an error instead of a new, empty database. */
  mustExist?: boolean
}): OpenDatabase {
  const name = databaseDialect(url)
  const caps = dialectCaps(name)
  if (name === 'postgres') {
    const pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      // Which Scry process each session is, in pg_stat_activity (an application_name in the
      // URL takes precedence).
      application_name: `scry pid ${process.pid}`,
      // int8 columns (chain ids, block numbers, unix times) fit in a JS number.
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === 20
            ? (value: string) => Number(value)
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    })
    // A client that loses its connection must not crash the process: an idle one (the pool's
    // 'error'), nor one checked out between its queries (inside a transaction, or held while
    // a webhook is delivered), which pg-pool leaves without a listener. Its next query fails,
    // the caller's error handling runs, and the pool drops the client on release.
    pool.on('error', () => {})
    pool.on('connect', (client) => client.on('error', () => {}))
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      caps,
      sqlite: undefined,
    }
  }
  const file = sqliteFilePath(url)
  if (file === '') throw new ConfigError('The database path is empty.')
  if (file !== ':memory:' && mustExist && !existsSync(file)) {
    throw new ConfigError(`There is no database at ${file}.`, {
      details:
        '`scry start` or `scry migrate` creates it. Check --database and --data-dir (or dataDir in the config file; a relative path is taken from the current directory).',
    })
  }
  let sqlite: SQLite.Database | undefined
  try {
    if (file !== ':memory:') makeDirectorySync(dirname(file))
    sqlite = new SQLite(file)
    // Before the first statement: another process may hold the file's lock a moment.
    sqlite.pragma('busy_timeout = 5000')
    sqlite.pragma('journal_mode = WAL')
  } catch (error) {
    // A directory, a file that is not SQLite's, a place that cannot be written.
    sqlite?.close()
    throw new ConfigError(
      `Cannot open the SQLite database ${file}: ${error instanceof Error ? error.message : String(error)}.`,
      {
        details:
          'The database setting (--database, --data-dir) must name a SQLite file or a place for one.',
        cause: error,
      },
    )
  }
  sqlite.pragma('synchronous = NORMAL')
  return {
    db: new Kysely<Database>({
      dialect: new SqliteDialect({ database: cachingStatements(sqlite) }),
    }),
    caps,
    sqlite,
  }
}
