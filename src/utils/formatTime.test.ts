import { describe, expect, test } from 'vitest'
import { formatTime, formatTimeOrNull } from './formatTime.ts'

describe('formatTime', () => {
  test('behavior: RFC 3339 with a UTC offset, to the second', () => {
    expect(formatTime(1_740_059_549)).toBe('2025-02-20T13:52:29+00:00')
  })

  test('behavior: a time past the year 9999 is null, the last second of 9999 is written', () => {
    expect(formatTimeOrNull(253_402_300_799)).toBe('9999-12-31T23:59:59+00:00')
    expect(formatTimeOrNull(253_402_300_800)).toBeNull()
    // Permit2's "never" (the largest uint48) and a far date a wallet may choose (2^40 s).
    expect(formatTimeOrNull(2 ** 48 - 1)).toBeNull()
    expect(formatTimeOrNull(2 ** 40)).toBeNull()
    expect(formatTimeOrNull(1_740_059_549)).toBe(formatTime(1_740_059_549))
  })
})
