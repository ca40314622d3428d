import { describe, expect, test } from 'vitest'
import { fromU256, isStoredU256, toU256, U256_ZERO } from './u256.ts'

const MAX = (1n << 256n) - 1n

/** Random uint256 values of every magnitude (a fixed generator: the same run every time). */
function samples(): bigint[] {
  let state = 0x2545f4914f6cdd1dn
  const next = () => {
    state ^= state << 13n
    state ^= state >> 7n
    state ^= state << 17n
    state &= (1n << 64n) - 1n
    return state
  }
  const out = [0n, 1n, 15n, 16n, 255n, 256n, 10n ** 18n, MAX - 1n, MAX]
  for (let i = 0; i < 400; i++) {
    let v = 0n
    for (let w = 0; w < 4; w++) v = (v << 64n) | next()
    out.push(v >> BigInt(i % 256))
  }
  return out
}

describe('u256', () => {
  test('default: zero, one and 10^18 as documented', () => {
    expect(toU256(0n)).toBe('00')
    expect(U256_ZERO).toBe('00')
    expect(toU256(1n)).toBe('011')
    expect(toU256(10n ** 18n)).toBe('15de0b6b3a7640000')
    expect(toU256(MAX)).toBe(`64${'f'.repeat(64)}`)
  })

  test('behavior: round trip, and text order is numeric order', () => {
    const values = samples()
    for (const v of values) {
      expect(fromU256(toU256(v))).toBe(v)
      expect(isStoredU256(toU256(v))).toBe(true)
    }
    const byText = [...values].sort((a, b) => {
      const [x, y] = [toU256(a), toU256(b)]
      return x < y ? -1 : x > y ? 1 : 0
    })
    expect(byText).toEqual([...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
  })

  test('error: out of range, and text that is not a stored value', () => {
    expect(() => toU256(-1n)).toThrow(RangeError)
    expect(() => toU256(MAX + 1n)).toThrow(RangeError)
    for (const text of [
      '',
      '0',
      '000',
      '010',
      '021',
      '02g1',
      '1',
      `${'0'.repeat(63)}1`,
      `65${'f'.repeat(65)}`,
    ]) {
      expect(isStoredU256(text), text).toBe(false)
    }
  })
})
