import { decodeAbiParameters, hexToBigInt, hexToBytes, trim } from 'viem'
import type { Hex } from '../types.ts'

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/
const MAX_LENGTH = 256
// C0 and C1 control characters, DEL included.
const CONTROL = /\p{Cc}/gu
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const lenientUtf8 = new TextDecoder('utf-8')

/**
 * The text a token's `name()` or `symbol()` returned, cleaned for display; undefined when
 * there is none. Accepts an ABI `string` and the older `bytes32` form (MKR, SAI: text
 * right-padded with zeros). Control characters are removed and the result is capped at
 * 256 characters, since token contracts are free to return anything.
 */
export function decodeMetadataString(returnData: Hex): string | undefined {
  if (typeof returnData !== 'string' || !HEX_BYTES.test(returnData)) return undefined
  const size = (returnData.length - 2) / 2
  if (size === 32) return decodeBytes32Text(returnData)
  if (size < 64) return undefined
  let raw: Hex
  try {
    // `bytes` and `string` share an encoding; reading bytes lets us choose how to decode.
    ;[raw] = decodeAbiParameters([{ type: 'bytes' }], returnData)
  } catch {
    return undefined
  }
  return clean(lenientUtf8.decode(hexToBytes(raw)))
}

function decodeBytes32Text(word: Hex): string | undefined {
  const bytes = trim(hexToBytes(word), { dir: 'right' })
  let text: string
  try {
    text = strictUtf8.decode(bytes)
  } catch {
    return undefined
  }
  // A bytes32 that is not text (a number, a hash) shows up as control bytes.
  if (/\p{Cc}/u.test(text.replaceAll('\0', ''))) return undefined
  return clean(text)
}

function clean(text: string): string | undefined {
  const cleaned = text.replace(CONTROL, '').trim()
  if (cleaned === '') return undefined
  const chars = Array.from(cleaned)
  return chars.length > MAX_LENGTH ? chars.slice(0, MAX_LENGTH).join('') : cleaned
}

/**
 * A uint256 return (`totalSupply()`, `decimals()`), tolerating contracts that return fewer
 * or more than 32 bytes: a short return is read as a big-endian number, a long one by its
 * first word. Undefined when nothing (or not hex) came back.
 */
export function decodeUint(returnData: Hex): bigint | undefined {
  if (typeof returnData !== 'string' || !HEX_BYTES.test(returnData)) return undefined
  if (returnData === '0x') return undefined
  return hexToBigInt(`0x${returnData.slice(2, 66)}`)
}

/** `decimals()` as a number; undefined when missing or above 255 (not a real uint8). */
export function decodeDecimals(returnData: Hex): number | undefined {
  const value = decodeUint(returnData)
  if (value === undefined || value > 255n) return undefined
  return Number(value)
}
