import { expect, test } from 'vitest'
import { decodeAddressWord } from './decodeAddressWord.ts'

const A = 'aB'.repeat(20)

test('default', () => {
  expect(decodeAddressWord(`0x${'0'.repeat(24)}${A}`)).toBe(`0x${A.toLowerCase()}`)
})

test('behavior: anything but one word holding a non-zero address', () => {
  for (const result of [
    undefined,
    '0x',
    `0x${'0'.repeat(64)}`,
    `0x${'0'.repeat(23)}1${A}`,
    `0x${'0'.repeat(24)}${A}${'0'.repeat(64)}`,
    `0x${'0'.repeat(24)}${A.slice(2)}`,
    `0x${'0'.repeat(24)}${'zz'.repeat(20)}`,
  ] as const)
    expect(decodeAddressWord(result as `0x${string}` | undefined), String(result)).toBeUndefined()
})
