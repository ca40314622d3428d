import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
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
