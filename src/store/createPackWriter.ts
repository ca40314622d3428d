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
  /** `source[from, to)` holds whole 32-byte words: each one packed. */
  words(source: Buffer, from?: number, to?: number): void
  /**
   * The bytes of `0x`-prefixed hex text, as they are (decoded as `Buffer.from(…, 'hex')`
   * decodes: up to the first pair that is not hex). Returns how many.
   */
  hex(text: string): number
  /**
   * One 32-byte word given as `0x`-prefixed hex text, packed. Returns how many bytes the text
   * held (decoded as `hex` decodes); anything but 32 writes nothing the caller may keep.
   */
  hexWord(text: string): number
  /**
   * The bytes of `0x`-prefixed hex text (decoded as `hex` decodes) in the writer's scratch
   * memory, not written: a view, valid until the next call.
   */
  scratch(text: string): Buffer
  /** What was written since the last `done` (or `reset`), copied out; the writer starts again. */
  done(): Buffer
  /** Drops what was written (after a failed string, so the next one starts clean). */
  reset(): void
}

/**
 * A writer is meant to be made once and reused string after string (`done` copies the bytes
 * out): a writer a string made every transaction pay for its buffer and closures.
 */
export function createPackWriter(capacity = 256): PackWriter {
  let buffer = Buffer.allocUnsafe(capacity)
  let at = 0
  let scratch = Buffer.allocUnsafe(capacity)
  const room = (n: number) => {
    if (at + n <= buffer.byteLength) return
    const grown = Buffer.allocUnsafe(Math.max(buffer.byteLength * 2, at + n))
    buffer.copy(grown, 0, 0, at)
    buffer = grown
  }
  /** The packed form of the word at `offset` of `source`, written at `at` (room made). */
  const word = (source: Buffer, offset: number) => {
    const known = KNOWN_BY_PREFIX.get(source.readUInt32BE(offset))
    if (
      known !== undefined &&
      (KNOWN_WORDS[known] as Buffer).compare(source, offset, offset + WORD) === 0
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
    words(source, from = 0, to = source.byteLength) {
      if ((to - from) % WORD !== 0)
        throw new Error(`createPackWriter: ${to - from} bytes are not whole words`)
      room(to - from + (to - from) / WORD)
      for (let offset = from; offset < to; offset += WORD) word(source, offset)
    },
    hex(text) {
      room((text.length - 2) >> 1)
      const written = buffer.write(text.slice(2), at, 'hex')
      at += written
      return written
    },
    hexWord(text) {
      // Decoded one byte past the header's place, then packed from there onto itself: a
      // packed word never runs ahead of the bytes it is read from.
      room(Math.max(WORD + 1, (text.length - 2) >> 1) + 1)
      const start = at + 1
      const written = buffer.write(text.slice(2), start, 'hex')
      if (written === WORD) word(buffer, start)
      return written
    },
    scratch(text) {
      const most = (text.length - 2) >> 1
      if (most > scratch.byteLength)
        scratch = Buffer.allocUnsafe(Math.max(most, scratch.byteLength * 2))
      return scratch.subarray(0, scratch.write(text.slice(2), 0, 'hex'))
    },
    done() {
      const out = Buffer.allocUnsafe(at)
      buffer.copy(out, 0, 0, at)
      at = 0
      return out
    },
    reset() {
      at = 0
    },
  }
}
