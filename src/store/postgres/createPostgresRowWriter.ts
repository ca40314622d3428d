import { type Kysely, sql, type Transaction } from 'kysely'
import { columnsOf, type Row, RowShapeError, type RowWriter } from '../createRowWriter.ts'
import type { Database } from '../schema.ts'
import { toArrayLiteral } from './toArrayLiteral.ts'
import { toBinaryArray } from './toBinaryArray.ts'

/**
 * PostgreSQL's `RowWriter`: every operation is one statement over `unnest` of one array per
 * column (each one parameter, `toBinaryArray` or `toArrayLiteral`), typed from the catalogue
 * (read once), whatever the number of rows.
 */
export function createPostgresRowWriter({ db }: { db: Kysely<Database> }): RowWriter {
  let types: Promise<Map<string, Map<string, string>>> | undefined
  /** Column types by table, from information_schema (after migrations, read on first use). */
  const columnTypes = () => {
    types ??= sql<{ table_name: string; column_name: string; udt_name: string }>`
      select table_name, column_name, udt_name from information_schema.columns
      where table_schema = current_schema()`
      .execute(db)
      .then(({ rows }) => {
        const byTable = new Map<string, Map<string, string>>()
        for (const r of rows) {
          const columns = byTable.get(r.table_name) ?? new Map<string, string>()
          columns.set(r.column_name, r.udt_name)
          byTable.set(r.table_name, columns)
        }
        return byTable
      })
    types.catch(() => {
      types = undefined
    })
    return types
  }

  /**
   * `unnest($1::int8[], $2::text[], …) as k(a, b, …)` for the given rows' columns. Columns
   * of bytes, text and integers go as binary arrays (`toBinaryArray`), others as text literals.
   */
  async function unnest(
    table: string,
    columns: readonly string[],
    rows: readonly Row[],
    shaped = false,
  ) {
    const tableTypes = (await columnTypes()).get(table)
    const values = columnValues(table, columns, rows, shaped)
    const arrays = columns.map((c, i) => {
      const type = tableTypes?.get(c)
      if (!type) throw new Error(`No column ${table}.${c}`)
      const column = values[i] as unknown[]
      return sql`${toBinaryArray(type, column) ?? toArrayLiteral(column)}::${sql.raw(`${type}[]`)}`
    })
    return sql`unnest(${sql.join(arrays)}) as k(${sql.join(columns.map((c) => sql.id(c)))})`
  }
  const matches = (columns: readonly string[]) =>
    sql.join(
      columns.map((c) => sql`t.${sql.id(c)} = k.${sql.id(c)}`),
      sql` and `,
    )

  return {
    async insert(trx, table, rows, shape) {
      if (rows.length === 0) return
      const columns = shape ?? columnsOf(rows)
      await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.id(c)))})
        select * from ${await unnest(table, columns, rows, shape !== undefined)}`.execute(
        trx as Transaction<Database>,
      )
    },
    async upsert(trx, table, keys, rows) {
      if (rows.length === 0) return
      const columns = columnsOf(rows)
      const updates = columns.filter((c) => !keys.includes(c))
      const onConflict =
        updates.length > 0
          ? sql`do update set ${sql.join(updates.map((c) => sql`${sql.id(c)} = excluded.${sql.id(c)}`))}`
          : sql`do nothing`
      await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.id(c)))})
        select * from ${await unnest(table, columns, rows)}
        on conflict (${sql.join(keys.map((c) => sql.id(c)))}) ${onConflict}`.execute(trx)
    },
    async delete(trx, table, keys) {
      if (keys.length === 0) return
      const columns = columnsOf(keys)
      await sql`delete from ${sql.table(table)} as t using ${await unnest(table, columns, keys)}
        where ${matches(columns)}`.execute(trx)
    },
    async select(executor, table, keys) {
      if (keys.length === 0) return []
      const columns = columnsOf(keys)
      const { rows } = await sql<Row>`select t.* from ${sql.table(table)} as t
        join ${await unnest(table, columns, keys)} on ${matches(columns)}`.execute(executor)
      return rows
    },
  }
}

/**
 * The rows' values column by column. `shaped` rows have exactly `columns` as keys, in order
 * (`RowWriter.insert`'s `shape`): their values are taken with `Object.values` instead of a
 * load by name per value, a site that sees every table's rows and columns (as SQLite's writer
 * does).
 */
function columnValues(
  table: string,
  columns: readonly string[],
  rows: readonly Row[],
  shaped: boolean,
): unknown[][] {
  const values = columns.map(() => new Array<unknown>(rows.length))
  for (let j = 0; j < rows.length; j++) {
    const row = rows[j] as Row
    if (shaped) {
      const own = Object.values(row)
      // A row of another shape would put its values under the wrong columns.
      if (own.length !== columns.length) throw new RowShapeError(`insert|${table}|${columns}`)
      for (let i = 0; i < own.length; i++) (values[i] as unknown[])[j] = own[i]
    } else {
      for (let i = 0; i < columns.length; i++) {
        ;(values[i] as unknown[])[j] = row[columns[i] as string]
      }
    }
  }
  return values
}
