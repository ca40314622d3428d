import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { makeDirectorySync } from './makeDirectorySync.ts'

const root = mkdtempSync(join(tmpdir(), 'scry-mkdir-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

test('default: makes a directory and its missing parents; an existing one is fine', () => {
  const deep = join(root, 'a', 'b', 'c')
  makeDirectorySync(deep)
  expect(existsSync(deep)).toBe(true)
  makeDirectorySync(deep)
  makeDirectorySync(root)
})

test('error: a path that cannot be made throws instead of looping (/proc, a file in the way)', () => {
  expect(() => makeDirectorySync('/proc/scry-no-such/x')).toThrow(/ENOENT|EACCES|EPERM/)
  writeFileSync(join(root, 'file'), '')
  expect(() => makeDirectorySync(join(root, 'file', 'x'))).toThrow(/ENOTDIR/)
})
