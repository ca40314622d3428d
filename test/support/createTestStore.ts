import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { createStore, type Store } from '../../src/store/createStore.ts'
import type { DialectName } from '../../src/store/dialect.ts'

/** Every store test runs on both engines (STYLE.md: one suite looped over the dialects). */
export const DIALECTS: readonly DialectName[] = ['sqlite', 'postgres']

/** Server used for PostgreSQL tests; CI runs one on 127.0.0.1:5432 with trust auth. */
export const TEST_PG_URL =
  process.env.SCRY_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

export type TestStore = { store: Store; url: string; drop(): Promise<void> }

/** A fresh, migrated store: a new SQLite file, or a new PostgreSQL database. */
export async function createTestStore(dialect: DialectName): Promise<TestStore> {
  const { url, drop } = await createTestDatabase(dialect)
  const store = createStore({ url })
  await store.migrate()
  return {
    store,
    url,
    drop: async () => {
      await store.close()
      await drop()
    },
  }
}

/** An empty database (not migrated) and a function that removes it. */
export async function createTestDatabase(
  dialect: DialectName,
): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'scry-test-'))
    return {
      url: join(dir, 'scry.sqlite'),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    }
  }
  const name = `scry_test_${process.pid}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: TEST_PG_URL })
  await admin.connect()
  try {
    await admin.query(`create database ${name}`)
  } finally {
    await admin.end()
  }
  const url = new URL(TEST_PG_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_PG_URL })
      await client.connect()
      try {
        await client.query(`drop database if exists ${name} with (force)`)
      } finally {
        await client.end()
      }
    },
  }
}
