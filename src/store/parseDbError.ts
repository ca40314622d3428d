import { BaseError, NonRetryableError, RetryableError } from '../internal/errors.ts'

/** Database driver errors become typed errors here, and nowhere else (STYLE.md). */
export class StoreError extends NonRetryableError {
  override name = 'StoreError'
}
export class StoreUnavailableError extends RetryableError {
  override name = 'StoreUnavailableError'
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08006', // connection_failure
  '08001',
  '08003',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
])

/** The server is up and says no to who or what the URL names: the operator must change it. */
const REFUSED_CODES = new Set([
  '28000', // invalid_authorization_specification: no such role
  '28P01', // invalid_password
  '3D000', // invalid_catalog_name: no such database
])

export function parseDbError(error: unknown, context: string): BaseError {
  if (error instanceof BaseError) return error
  const code = (error as { code?: unknown })?.code
  const message = error instanceof Error ? error.message : String(error)
  if (typeof code === 'string' && REFUSED_CODES.has(code)) {
    return new StoreError(`The database refused the connection: ${message}.`, {
      details:
        'Check the user, password and database name in the database URL (--database, SCRY_DATABASE, database in the config file); create the database first if it is new (createdb <name>).',
      cause: error,
      code,
    })
  }
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) {
    return new StoreUnavailableError(`The database is unavailable (${context}).`, {
      details: `${code}: ${message}`,
      cause: error,
      code,
    })
  }
  return new StoreError(`A database operation failed (${context}).`, {
    details: message,
    cause: error,
    ...(typeof code === 'string' ? { code } : {}),
  })
}
