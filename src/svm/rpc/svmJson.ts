import { LosslessNumber, parse, stringify } from 'lossless-json'

const INTEGER = /^-?[0-9]+$/

/**
 * Parses Solana JSON without losing anything: integers that fit a double exactly become
 * numbers, larger ones (u64) `bigint`; other numbers (`uiAmount` floats) stay
 * `LosslessNumber`s holding the node's text, so `stringifySvmJson` writes back exactly what
 * the node sent (`1250.0` stays `1250.0`).
 */
export function parseSvmJson(text: string): unknown {
  return parse(text, null, (value) => {
    if (INTEGER.test(value)) {
      const n = Number(value)
      return Number.isSafeInteger(n) ? n : BigInt(value)
    }
    return new LosslessNumber(value)
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
