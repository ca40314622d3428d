import SQLite from 'better-sqlite3'
import { expect, test } from 'vitest'
import { cachingStatements } from './cachingStatements.ts'

test('behavior: one statement per SQL text, the least recently used dropped past 256', () => {
  const sqlite = new SQLite(':memory:')
  const db = cachingStatements(sqlite)
  const first = db.prepare('select 1 as one')
  expect(db.prepare('select 1 as one')).toBe(first)
  expect(db.prepare('select 1 as one').all([])).toEqual([{ one: 1 }])
  const second = db.prepare('select 2 as n')
  for (let i = 1; i < 255; i++) db.prepare(`select ${i + 2} as n`)
  // 256 kept; the first, used last of all but the rest, stays while `select 2` goes.
  db.prepare('select 1 as one')
  db.prepare('select 300 as n')
  expect(db.prepare('select 1 as one')).toBe(first)
  const again = db.prepare('select 2 as n')
  expect(again).not.toBe(second)
  expect(again.all([])).toEqual([{ n: 2 }])
  db.close()
  expect(sqlite.open).toBe(false)
})

test('behavior: a kept statement sees a schema changed after it was prepared', () => {
  const db = cachingStatements(new SQLite(':memory:'))
  db.prepare('create table t (a integer)').run([])
  const select = db.prepare('select * from t')
  db.prepare('insert into t (a) values (?)').run([1])
  db.prepare('alter table t add column b integer').run([])
  expect(db.prepare('select * from t')).toBe(select)
  expect(select.all([])).toEqual([{ a: 1, b: null }])
  db.close()
})
