import { createPackReader } from './createPackReader.ts'
import { createPackWriter } from './createPackWriter.ts'
import { bytesToHex } from './hexBytes.ts'

const SELECTOR = 4
const WORD = 32
/** The first byte of packed calldata: what follows. */
const RAW = 0
const SELECTOR_AND_WORDS = 1

/**
 * Calldata as `transactions.input` keeps it (migration 0023): nothing for none; else a byte
 * saying how, then either a 4-byte selector and the ABI words packed (`createPackWriter`:
 * an address argument takes 21 bytes, a small amount a few) or, for calldata that is not a
 * selector and whole words, the bytes as they are. Pure. Migration 0023 writes stored
 * calldata with this function: a later change of layout needs a migration of its own, and
 * must leave 0023 a copy of this one.
 */
export function packCalldata(input: string): Buffer {
  out.reset()
  const bytes = out.scratch(input)
  if (bytes.byteLength === 0) return out.done()
  if (bytes.byteLength >= SELECTOR && (bytes.byteLength - SELECTOR) % WORD === 0) {
    out.byte(SELECTOR_AND_WORDS)
    out.bytes(bytes.subarray(0, SELECTOR))
    out.words(bytes, SELECTOR)
  } else {
    out.byte(RAW)
    out.bytes(bytes)
  }
  return out.done()
}

/** One writer for every call (each runs to its end without a pause: nothing interleaves). */
const out = createPackWriter(1024)

/** The calldata `packCalldata` packed, as lowercase hex. Throws on bytes it did not write. Pure. */
export function unpackCalldata(packed: Uint8Array): `0x${string}` {
  if (packed.byteLength === 0) return '0x'
  const read = createPackReader(packed, 'unpackCalldata')
  const how = read.byte()
  const rest = packed.byteLength - 1
  if (how === RAW) return bytesToHex(read.bytes(rest)) as `0x${string}`
  if (how !== SELECTOR_AND_WORDS) throw new Error(`unpackCalldata: no layout ${how}`)
  const selector = read.bytes(SELECTOR)
  return bytesToHex(Buffer.concat([selector, read.wordsToEnd()])) as `0x${string}`
}
