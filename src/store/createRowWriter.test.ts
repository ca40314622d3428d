import { type Kysely, sql, type Transaction } from 'kysely'
import { afterEach, describe, expect, test } from 'vitest'
import { createTestDatabase, DIALECTS } from '../../test/support/createTestStore.ts'
import { columnsOf, createRowWriter, type Row } from './createRowWriter.ts'
import type { DialectName } from './dialect.ts'
import { openDatabase } from './openDatabase.ts'
import type { Database } from './schema.ts'

// More rows than one run of SQLite's multi-row statements takes (100 rows of these five
// columns), and not a multiple of it: full runs and a remainder.
const N = 1_234

const row = (i: number, v: string): Row => ({
  k1: i % 7,
  k2: `key-${i}`,
  // Every third row leaves `v` out: stored as null.
  ...(i % 3 === 0 ? {} : { v }),
  n: i * 1_000_003,
  b: Buffer.from([i & 0xff, i >> 8, 0]),
})

const sorted = (rows: readonly Row[]) =>
  [...rows]
    .map(
      (r): Row => ({ ...r, k1: Number(r.k1), n: Number(r.n), b: Buffer.from(r.b as Uint8Array) }),
    )
    .sort((a, b) => String(a.k2).localeCompare(String(b.k2)))

for (const dialect of DIALECTS) {
  describe(`row writer (${dialect})`, () => {
    let close: (() => Promise<void>) | undefined
    afterEach(async () => {
      await close?.()
      close = undefined
    })

    async function open(name: DialectName) {
      const { url, drop } = await createTestDatabase(name)
      const { db, caps, sqlite } = openDatabase({ url })
      close = async () => {
        await db.destroy()
        await drop()
      }
      const bytes = name === 'postgres' ? sql`bytea` : sql`blob`
      await sql`create table writer_test (k1 bigint not null, k2 text not null, v text,
        n bigint not null, b ${bytes} not null, primary key (k1, k2))`.execute(db)
      const writer = createRowWriter({ caps, db, sqlite })
      const inTransaction = (work: (trx: Transaction<Database>) => Promise<void>) =>
        db.transaction().execute(work)
      return { db, writer, inTransaction }
    }

    const all = async (db: Kysely<Database>) =>
      sorted((await sql<Row>`select * from writer_test`.execute(db)).rows)

    test('behavior: rows of a shape the caller names are stored as without it; a row of another shape is refused, not written under the wrong columns', async () => {
      const { db, writer, inTransaction } = await open(dialect)
      const shape = ['k1', 'k2', 'v', 'n', 'b']
      // One literal: every row has the shape's keys in its order (as applyBatch's builders).
      const full = (i: number): Row => ({
        k1: i % 7,
        k2: `key-${i}`,
        v: `s${i}`,
        n: i * 1_000_003,
        b: Buffer.from([i & 0xff, i >> 8, 0]),
      })
      const rows = Array.from({ length: N }, (_, i) => full(i))
      await inTransaction((trx) => writer.insert(trx, 'writer_test', rows, shape))
      expect(await all(db)).toEqual(sorted(rows))
      // The first of a run without `v`: its values would shift one column left.
      const odd = Array.from({ length: N }, (_, i) => full(N + i))
      delete odd[0]?.v
      const writing = inTransaction((trx) => writer.insert(trx, 'writer_test', odd, shape))
      await expect(writing).rejects.toThrow(/differ from the shape/)
    })

    test('inserts, upserts, selects and deletes any number of rows, missing columns as null', async () => {
      const { db, writer, inTransaction } = await open(dialect)
      const first = Array.from({ length: N }, (_, i) => row(i, `a${i}`))
      await inTransaction((trx) => writer.insert(trx, 'writer_test', first))
      const expected: Row[] = first.map((r) => ({ v: null, ...r }))
      expect(await all(db)).toEqual(sorted(expected))

      // Half the keys exist, half are new; existing rows take every non-key column.
      const second = Array.from({ length: N }, (_, i) => row(i + N / 2, `b${i}`))
      await inTransaction((trx) => writer.upsert(trx, 'writer_test', ['k1', 'k2'], second))
      const byKey = new Map<string, Row>(expected.map((r) => [`${r.k1}|${r.k2}`, r]))
      for (const r of second) byKey.set(`${r.k1}|${r.k2}`, { v: null, ...r })
      expect(await all(db)).toEqual(sorted([...byKey.values()]))

      const keys = Array.from({ length: N }, (_, i) => ({ k1: i % 7, k2: `key-${i}` }))
      const existing = keys.filter((k) => byKey.has(`${k.k1}|${k.k2}`))
      const gone = existing.filter((_, i) => i % 2 === 0)
      await inTransaction((trx) => writer.delete(trx, 'writer_test', gone))
      for (const k of gone) byKey.delete(`${k.k1}|${k.k2}`)
      expect(await all(db)).toEqual(sorted([...byKey.values()]))
      const asked = keys.slice(0, 300)
      expect(sorted(await writer.select(db, 'writer_test', asked))).toEqual(
        sorted(
          asked.flatMap((k): Row[] => {
            const r = byKey.get(`${k.k1}|${k.k2}`)
            return r ? [r] : []
          }),
        ),
      )
    })
  })
}

test('behavior: columnsOf is every column any row sets, in first-seen order', () => {
  expect(columnsOf([])).toEqual([])
  expect(
    columnsOf([
      { a: 1, b: 2 },
      { a: 3, b: 4 },
    ]),
  ).toEqual(['a', 'b'])
  expect(
    columnsOf([
      { a: 1, b: 2 },
      { b: 4, a: 3 },
    ]),
  ).toEqual(['a', 'b'])
  expect(columnsOf([{ a: 1 }, { a: 3, c: 4 }, { b: 5 }])).toEqual(['a', 'c', 'b'])
  expect(columnsOf([{ a: 1, b: 2 }, { a: 3 }])).toEqual(['a', 'b'])
})
