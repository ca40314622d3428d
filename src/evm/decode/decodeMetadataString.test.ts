import {
  encodeAbiParameters,
  encodeErrorResult,
  keccak256,
  parseAbi,
  stringToHex,
  toHex,
} from 'viem'
import { describe, expect, test } from 'vitest'
import type { Hex } from '../types.ts'
import { decodeDecimals, decodeMetadataString, decodeUint } from './decodeMetadataString.ts'

const abiString = (value: string) => encodeAbiParameters([{ type: 'string' }], [value])
const abiBytes = (value: Hex) => encodeAbiParameters([{ type: 'bytes' }], [value])
const bytes32 = (value: string) => stringToHex(value, { size: 32 })
const word = (value: bigint) => encodeAbiParameters([{ type: 'uint256' }], [value])

describe('decodeMetadataString', () => {
  test('default', () => {
    expect(decodeMetadataString(abiString('Wrapped Ether'))).toBe('Wrapped Ether')
  })

  test('behavior: bytes32 names (MKR, SAI)', () => {
    // MKR's symbol() as mainnet returns it.
    expect(
      decodeMetadataString('0x4d4b520000000000000000000000000000000000000000000000000000000000'),
    ).toBe('MKR')
    expect(decodeMetadataString(bytes32('Dai Stablecoin v1.0'))).toBe('Dai Stablecoin v1.0')
    // A last byte ending in a zero digit (0x50 'P', 0x30 '0') must survive the trim.
    expect(decodeMetadataString(bytes32('SHOP'))).toBe('SHOP')
    expect(decodeMetadataString(bytes32('V10'))).toBe('V10')
    expect(decodeMetadataString(bytes32('x'.repeat(32)))).toBe('x'.repeat(32))
    expect(decodeMetadataString(bytes32('Café'))).toBe('Café')
  })

  test('behavior: text beyond ascii', () => {
    expect(decodeMetadataString(abiString('🦄 Unicorn Ťoken'))).toBe('🦄 Unicorn Ťoken')
  })

  test('behavior: control characters and NUL are removed', () => {
    expect(decodeMetadataString(abiString('Wr\u0000ap\nped\u0007 Ether\u009b\u007f'))).toBe(
      'Wrapped Ether',
    )
    expect(decodeMetadataString(abiString('  USDC\u0000\u0000 '))).toBe('USDC')
    // Interior padding in a bytes32.
    expect(
      decodeMetadataString(toHex(new Uint8Array([0x41, 0, 0x42, ...new Array(29).fill(0)]))),
    ).toBe('AB')
  })

  test('behavior: capped at 256 characters', () => {
    expect(decodeMetadataString(abiString('a'.repeat(10_000)))).toBe('a'.repeat(256))
    // Counted in characters, so a surrogate pair is never cut in half.
    expect(decodeMetadataString(abiString('🦄'.repeat(300)))).toBe('🦄'.repeat(256))
  })

  test('behavior: invalid utf-8 in an ABI string is kept as replacement characters', () => {
    expect(decodeMetadataString(abiBytes('0x41ff42'))).toBe('A\ufffdB')
  })

  test('behavior: nothing to show', () => {
    expect(decodeMetadataString('0x')).toBeUndefined()
    expect(decodeMetadataString(abiString(''))).toBeUndefined()
    expect(decodeMetadataString(abiString('\u0000\u0000'))).toBeUndefined()
    expect(decodeMetadataString(abiString('   '))).toBeUndefined()
    expect(decodeMetadataString(`0x${'00'.repeat(32)}`)).toBeUndefined()
  })

  test('error: a bytes32 that is not text', () => {
    expect(decodeMetadataString(keccak256('0x01'))).toBeUndefined()
    // decimals()-style number where a string was expected.
    expect(decodeMetadataString(word(18n))).toBeUndefined()
    expect(decodeMetadataString(word(1n))).toBeUndefined()
    // Invalid utf-8.
    expect(decodeMetadataString(`0xff${'00'.repeat(31)}`)).toBeUndefined()
    expect(decodeMetadataString(`0x41c3${'00'.repeat(30)}`)).toBeUndefined()
    // Text with control bytes in it.
    expect(decodeMetadataString(`0x410142${'00'.repeat(29)}`)).toBeUndefined()
  })

  test('error: garbage returns', () => {
    expect(decodeMetadataString('0x1234')).toBeUndefined()
    expect(decodeMetadataString(`0x${'41'.repeat(33)}`)).toBeUndefined()
    expect(decodeMetadataString(`0x${'41'.repeat(63)}`)).toBeUndefined()
    expect(decodeMetadataString(`0x${'ff'.repeat(96)}`)).toBeUndefined()
    // Length says more than there is.
    expect(
      decodeMetadataString(`${word(32n)}${word(1000n).slice(2)}${'41'.repeat(32)}`),
    ).toBeUndefined()
    // Offset past the end.
    expect(decodeMetadataString(`${word(2n ** 200n)}${word(3n).slice(2)}`)).toBeUndefined()
    // Revert data passed by mistake.
    const revert = encodeErrorResult({
      abi: parseAbi(['error Error(string)']),
      errorName: 'Error',
      args: ['no name'],
    })
    expect(decodeMetadataString(revert)).toBeUndefined()
    expect(decodeMetadataString('0xzz' as Hex)).toBeUndefined()
    expect(decodeMetadataString(abiString('A').slice(0, -1) as Hex)).toBeUndefined()
    expect(decodeMetadataString(undefined as unknown as Hex)).toBeUndefined()
  })
})

describe('decodeUint', () => {
  test('default', () => {
    expect(decodeUint(word(1_000_000n * 10n ** 18n))).toBe(1_000_000n * 10n ** 18n)
    expect(decodeUint(word(2n ** 256n - 1n))).toBe(2n ** 256n - 1n)
  })

  test('behavior: short and long returns', () => {
    expect(decodeUint('0x12')).toBe(18n)
    expect(decodeUint(`${word(6n)}${word(7n).slice(2)}`)).toBe(6n)
  })

  test('error: no value', () => {
    expect(decodeUint('0x')).toBeUndefined()
    expect(decodeUint('0x123')).toBeUndefined()
    expect(decodeUint('0xgg' as Hex)).toBeUndefined()
    expect(decodeUint(undefined as unknown as Hex)).toBeUndefined()
  })
})

describe('decodeDecimals', () => {
  test('default', () => {
    expect(decodeDecimals(word(18n))).toBe(18)
  })

  test('behavior: edges of uint8', () => {
    expect(decodeDecimals(word(0n))).toBe(0)
    expect(decodeDecimals(word(255n))).toBe(255)
    expect(decodeDecimals('0x06')).toBe(6)
  })

  test('error: not a uint8', () => {
    expect(decodeDecimals(word(256n))).toBeUndefined()
    expect(decodeDecimals(word(2n ** 255n))).toBeUndefined()
    expect(decodeDecimals('0x')).toBeUndefined()
  })
})
