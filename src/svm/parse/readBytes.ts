import { encodeBase58 } from '../base58.ts'

/** Little-endian readers over account data; they throw `RangeError` past the end. */

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength)
}

export function readU8(data: Uint8Array, offset: number): number {
  return view(data).getUint8(offset)
}

export function readU16(data: Uint8Array, offset: number): number {
  return view(data).getUint16(offset, true)
}

export function readU32(data: Uint8Array, offset: number): number {
  return view(data).getUint32(offset, true)
}

export function readU64(data: Uint8Array, offset: number): bigint {
  return view(data).getBigUint64(offset, true)
}

export function readU128(data: Uint8Array, offset: number): bigint {
  const v = view(data)
  return v.getBigUint64(offset, true) | (v.getBigUint64(offset + 8, true) << 64n)
}

export function readPubkey(data: Uint8Array, offset: number): string {
  if (offset + 32 > data.length) throw new RangeError('pubkey past the end of the data')
  return encodeBase58(data.subarray(offset, offset + 32))
}

/** An all-zero pubkey means "none" in `OptionalNonZeroPubkey` fields. */
export function readOptionalPubkey(data: Uint8Array, offset: number): string | undefined {
  if (offset + 32 > data.length) throw new RangeError('pubkey past the end of the data')
  return data.subarray(offset, offset + 32).some((b) => b !== 0)
    ? readPubkey(data, offset)
    : undefined
}

/**
 * A Borsh string (u32 length + UTF-8) at `offset`, with the offset after it. Control
 * characters (NUL padding included) are dropped: these strings are names, symbols and URIs
 * that anyone can write, and PostgreSQL text cannot hold a NUL.
 */
export function readBorshString(data: Uint8Array, offset: number): { value: string; end: number } {
  const length = readU32(data, offset)
  const end = offset + 4 + length
  if (end > data.length) throw new RangeError('string past the end of the data')
  const text = new TextDecoder().decode(data.subarray(offset + 4, end))
  return { value: text.replace(/\p{Cc}/gu, ''), end }
}
