import { expect, test } from 'vitest'
import { createUuidV7 } from './createUuidV7.ts'

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

test('behavior: ids sort in creation order within a millisecond, past the counter and when the clock steps back', () => {
  const next = createUuidV7()
  const times = [
    ...Array.from({ length: 5000 }, () => 1_700_000_000_000),
    1_700_000_000_001,
    1_699_999_999_000,
    1_700_000_000_500,
  ]
  const ids = times.map(next)
  for (const id of ids) expect(id).toMatch(UUID_V7)
  expect([...ids].sort()).toEqual(ids)
  expect(new Set(ids).size).toBe(ids.length)
  // The time is the id's first 48 bits.
  expect(Number.parseInt(ids[0]!.replace('-', '').slice(0, 12), 16)).toBe(1_700_000_000_000)
})
