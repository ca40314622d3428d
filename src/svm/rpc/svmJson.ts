import { parse, stringify } from 'lossless-json'

const INTEGER = /^-?[0-9]+$/

/**
 * Parses Solana JSON without losing u64 precision: integers that fit a double exactly become
 * numbers, larger ones `bigint`; other numbers stay numbers (they are doubles on the node too).
 */
export function parseSvmJson(text: string): unknown {
  return parse(text, null, (value) => {
    if (INTEGER.test(value)) {
      const n = Number(value)
      return Number.isSafeInteger(n) ? n : BigInt(value)
    }
    return Number(value)
  })
}

/** JSON text of a value from `parseSvmJson` (bigints written as plain integers). */
export function stringifySvmJson(value: unknown): string {
  return stringify(value) ?? 'null'
}

/** A u64 field of parsed node JSON as a bigint; throws on anything that is not an integer. */
export function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value)
  if (typeof value === 'string' && INTEGER.test(value)) return BigInt(value)
  throw new TypeError(`expected an integer, got ${typeof value}`)
}
