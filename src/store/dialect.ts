import { type ColumnDefinitionBuilder, type RawBuilder, sql } from 'kysely'

export type DialectName = 'sqlite' | 'postgres'

/**
 * Every difference between SQLite and PostgreSQL that the store cares about, in one place
 * (STYLE.md: capability flags, not `if (postgres)` through the queries).
 */
export type DialectCaps = {
  name: DialectName
  /** Column type for uint256 text whose byte order is numeric order. */
  u256Type: 'text' | RawBuilder<unknown>
  /** Column type for raw bytes (hashes, calldata, log topics and data). */
  bytesType: 'blob' | 'bytea'
  /** Column type for integers that may pass 2^31 (chain ids, block numbers, times). */
  intType: 'bigint' | 'integer'
  /** Bound parameters per statement, kept under each engine's limit. */
  maxParams: number
  /** Makes an integer column an auto-generated primary key. */
  autoId: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder
  /**
   * Substring index for token search: SQLite's FTS5 table with the trigram tokenizer, or a
   * PostgreSQL `pg_trgm` GIN index (see `searchTokens`).
   */
  textSearch: 'fts5_trigram' | 'pg_trgm'
}

export function dialectCaps(name: DialectName): DialectCaps {
  switch (name) {
    case 'sqlite':
      return {
        name,
        u256Type: 'text',
        bytesType: 'blob',
        intType: 'integer',
        maxParams: 30_000,
        autoId: (c) => c.autoIncrement().primaryKey(),
        textSearch: 'fts5_trigram',
      }
    case 'postgres':
      return {
        name,
        u256Type: sql`text collate "C"`,
        bytesType: 'bytea',
        intType: 'bigint',
        maxParams: 60_000,
        autoId: (c) => c.generatedAlwaysAsIdentity().primaryKey(),
        textSearch: 'pg_trgm',
      }
    default: {
      const never: never = name
      throw new Error(`unknown dialect ${String(never)}`)
    }
  }
}
