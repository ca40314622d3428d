import SQLite from 'better-sqlite3'
import { ConfigError } from '../../internal/errors.ts'

/** This process's claim on a SQLite database; `release()` lets another process take it. */
export type SqliteClaim = { release(): void }

/**
 * Claims SQLite database `file` for this process: one `scry start` or `scry dev` writes it (a
 * second would index every chain twice, and `scry dev` would delete the first one's files).
 * The claim is an exclusive lock on `<file>.lock`, a SQLite file of its own held with
 * `locking_mode = EXCLUSIVE` until `release()`: the operating system drops it the moment the
 * process ends, however it ends, so a killed process never leaves a stale claim. The database
 * itself stays open to other processes (`scry status`, `keys`, `abi`).
 * Throws a ConfigError naming the file when another process holds it (`action`: what was
 * refused, for the message).
 */
export function claimSqliteFile(file: string, action: string): SqliteClaim {
  if (file === ':memory:') return { release() {} }
  const lockFile = `${file}.lock`
  let lock: SQLite.Database | undefined
  try {
    lock = new SQLite(lockFile, { timeout: 0 })
    lock.pragma('locking_mode = EXCLUSIVE')
    lock.pragma('journal_mode = OFF')
    lock.exec('BEGIN EXCLUSIVE; COMMIT')
  } catch (error) {
    lock?.close()
    const busy = (error as { code?: string }).code === 'SQLITE_BUSY'
    throw new ConfigError(
      busy
        ? `Another Scry process is using the database ${file}; ${action} was refused.`
        : `Cannot claim the database ${file} (its lock file ${lockFile}): ${error instanceof Error ? error.message : String(error)}.`,
      {
        details: busy
          ? 'With SQLite one process runs Scry (every role). Stop the other `scry start` or `scry dev` first, or point this one at another database (--data-dir, or --database where the command takes it).'
          : 'The lock file must be a place this process can write, beside the database.',
        cause: error,
      },
    )
  }
  const held = lock
  return {
    release() {
      if (held.open) held.close()
    },
  }
}
