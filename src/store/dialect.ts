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
  /**
   * How a query matches a list of composite keys (`keysIn`): SQLite's row-value `in` list, or
   * on PostgreSQL a semi-join against `unnest` of one array per column (for 101 keys of
   * `transactions`, 0.07 ms of planning against 3.9 ms for the `in` list's 101-way `OR`).
   */
  keyList: 'row_values' | 'unnest'
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
        keyList: 'row_values',
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
        keyList: 'unnest',
      }
    default: {
      const never: never = name
      throw new Error(`unknown dialect ${String(never)}`)
    }
  }
}
