import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, describe, expect, test } from 'vitest'
import { createTestDatabase } from '../../test/support/createTestStore.ts'
import { ConfigError } from '../internal/errors.ts'
import { openDatabase } from './openDatabase.ts'

describe('openDatabase (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scry-open-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const refusal = (open: () => unknown) => {
    try {
      open()
    } catch (error) {
      return error
    }
    throw new Error('opened')
  }

  test('error: a file that is not SQLite, or a directory, is a ConfigError naming the path', () => {
    const text = join(dir, 'notes.txt')
    writeFileSync(text, 'not a database, just some words that fill a page '.repeat(100))
    const notSqlite = refusal(() => openDatabase({ url: text }))
    expect(notSqlite).toBeInstanceOf(ConfigError)
    expect((notSqlite as ConfigError).shortMessage).toBe(
      `Cannot open the SQLite database ${text}: file is not a database.`,
    )
    const directory = refusal(() => openDatabase({ url: dir }))
    expect(directory).toBeInstanceOf(ConfigError)
    expect((directory as ConfigError).shortMessage).toMatch(
      `Cannot open the SQLite database ${dir}:`,
    )
  })

  test('error: mustExist refuses a path with nothing there and creates nothing', () => {
    const missing = join(dir, 'typo', 'scry.sqlite')
    const error = refusal(() => openDatabase({ url: `sqlite:${missing}`, mustExist: true }))
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).shortMessage).toBe(`There is no database at ${missing}.`)
    expect(existsSync(join(dir, 'typo'))).toBe(false)
    // Without it, the file is made (what `scry start` and `scry migrate` do).
    const made = openDatabase({ url: missing })
    made.sqlite?.close()
    expect(existsSync(missing)).toBe(true)
  })
})

describe('openDatabase (PostgreSQL)', () => {
  test('error: a connection the server ends while its client is checked out (idle in a transaction) fails that transaction, not the process', async () => {
    const { url, drop } = await createTestDatabase('postgres')
    const { db } = openDatabase({ url })
    const admin = openDatabase({ url })
    try {
      const outcome = db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)
        await sql`select pg_terminate_backend(${rows[0]?.pid})`.execute(admin.db)
        // The client hears of it while no query of its own runs: an 'error' event, which
        // crashed the process when nothing listened (a PostgreSQL restart, a cut session).
        await new Promise((resolve) => setTimeout(resolve, 300))
        await sql`select 1`.execute(trx)
      })
      await expect(outcome).rejects.toThrow()
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }])
    } finally {
      await db.destroy()
      await admin.db.destroy()
      await drop()
    }
  })
})
