import { KNOWN_BY_PREFIX, KNOWN_WORD_BASE, KNOWN_WORDS } from './knownWords.ts'

const WORD = 32
const MAX_U32 = 0xffff_ffff

/**
 * Builds the packed byte strings of migration 0023 (`packLogs`, `packCalldata`); read back by
 * `createPackReader`. Besides plain bytes it writes:
 * - varint: unsigned LEB128 (7 bits a byte, low first; below 2^32), for indexes and lengths;
 * - word: a 32-byte ABI word as one header byte and what the header does not say. Header
 *   0–32: that many leading zero bytes left out (addresses, amounts: 12 or more); 33–64:
 *   `header − 32` leading 0xff bytes left out (negative int256, unlimited allowances); 65 and
 *   up: `KNOWN_WORDS[header − 65]` (event topics), nothing follows.
 * Stored rows and migration 0023 depend on these layouts: change them only with a migration
 * of their own.
 */
export type PackWriter = {
  byte(value: number): void
  varint(value: number): void
  bytes(bytes: Uint8Array): void
  /** `source` holds whole 32-byte words: each one packed. */
  words(source: Buffer): void
  /** What was written (a view of the writer's buffer). */
  done(): Buffer
}

export function createPackWriter(capacity = 256): PackWriter {
  let buffer = Buffer.allocUnsafe(capacity)
  let at = 0
  const room = (n: number) => {
    if (at + n <= buffer.byteLength) return
    const grown = Buffer.allocUnsafe(Math.max(buffer.byteLength * 2, at + n))
    buffer.copy(grown, 0, 0, at)
    buffer = grown
  }
  const word = (source: Buffer, offset: number) => {
    const known = KNOWN_BY_PREFIX.get(source.readUInt32BE(offset))
    if (
      known !== undefined &&
      (KNOWN_WORDS[known] as Buffer).equals(source.subarray(offset, offset + WORD))
    ) {
      buffer[at++] = KNOWN_WORD_BASE + known
      return
    }
    let skip = 0
    while (skip < WORD && source[offset + skip] === 0) skip++
    let header = skip
    if (skip === 0) {
      while (skip < WORD && source[offset + skip] === 0xff) skip++
      header = skip === 0 ? 0 : WORD + skip
    }
    buffer[at++] = header
    at += source.copy(buffer, at, offset + skip, offset + WORD)
  }
  return {
    byte(value) {
      room(1)
      buffer[at++] = value
    },
    varint(value) {
      if (!(Number.isInteger(value) && value >= 0 && value <= MAX_U32))
        throw new Error(`createPackWriter: ${value} is not a whole number below 2^32`)
      room(5)
      let rest = value
      while (rest >= 0x80) {
        buffer[at++] = (rest % 0x80) | 0x80
        rest = Math.floor(rest / 0x80)
      }
      buffer[at++] = rest
    },
    bytes(bytes) {
      room(bytes.byteLength)
      buffer.set(bytes, at)
      at += bytes.byteLength
    },
    words(source) {
      if (source.byteLength % WORD !== 0)
        throw new Error(`createPackWriter: ${source.byteLength} bytes are not whole words`)
      room(source.byteLength + source.byteLength / WORD)
      for (let offset = 0; offset < source.byteLength; offset += WORD) word(source, offset)
    },
    done: () => buffer.subarray(0, at),
  }
}
