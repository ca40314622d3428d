import { expect, test } from 'vitest'
import { parseRoles } from './parseRoles.ts'

test('default: no --role runs every role; repeated and comma-separated roles add up', () => {
  expect(parseRoles(undefined)).toEqual(new Set(['api', 'indexer', 'webhooks']))
  expect(parseRoles(['api', 'indexer, webhooks'])).toEqual(new Set(['api', 'indexer', 'webhooks']))
  expect(parseRoles(['indexer'])).toEqual(new Set(['indexer']))
})

test('error: an unknown role, and an empty --role (not "every role")', () => {
  expect(() => parseRoles(['api', 'indexr'])).toThrow(/Unknown role "indexr"/)
  expect(() => parseRoles([''])).toThrow(/--role is empty/)
  expect(() => parseRoles([' , '])).toThrow(/--role is empty/)
})
