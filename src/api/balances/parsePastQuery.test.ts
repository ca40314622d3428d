import { expect, test } from 'vitest'
import { parsePastQuery } from './parsePastQuery.ts'

const at = (text: string) => parsePastQuery({ blockNumber: undefined, at: text })

test('behavior: at takes ISO 8601 times with a zone and unix seconds', () => {
  expect(at('2024-02-29T12:00:00Z')).toEqual({ at: Date.UTC(2024, 1, 29, 12) / 1000 })
  expect(at('2025-02-20T13:52:29+02:00')).toEqual({ at: Date.UTC(2025, 1, 20, 11, 52, 29) / 1000 })
  expect(at('1700000000')).toEqual({ at: 1_700_000_000 })
})

test('error: a day the calendar does not have is refused, not rolled over', () => {
  for (const text of [
    '2026-11-31T13:20:00Z',
    '2026-02-29T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-01-00T00:00:00Z',
  ]) {
    expect(() => at(text), text).toThrow('Invalid at')
  }
})
