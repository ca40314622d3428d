import { KNOWN_WORD_BASE, KNOWN_WORDS } from './knownWords.ts'

const WORD = 32

/** Reads what `createPackWriter` wrote; every read past the end or of a bad header throws. */
export type PackReader = {
  /** Whether bytes are left. */
  more(): boolean
  byte(): number
  varint(): number
  bytes(length: number): Buffer
  /** `count` packed words, unpacked to 32 bytes each. */
  words(count: number): Buffer
  /** Packed words up to the end. */
  wordsToEnd(): Buffer
}

/** `what` names the column in error messages (`unpackLogs: …`). */
export function createPackReader(packed: Uint8Array, what: string): PackReader {
  const bytes = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength)
  let at = 0
  const need = (n: number) => {
    if (at + n > bytes.byteLength) throw new Error(`${what}: the packed bytes are cut short`)
  }
  const byte = () => {
    need(1)
    return bytes[at++] as number
  }
  const word = (out: Buffer, offset: number) => {
    const header = byte()
    if (header >= KNOWN_WORD_BASE) {
      const known = KNOWN_WORDS[header - KNOWN_WORD_BASE]
      if (!known) throw new Error(`${what}: no known word ${header}`)
      known.copy(out, offset)
      return
    }
    const skip = header > WORD ? header - WORD : header
    out.fill(header > WORD ? 0xff : 0, offset, offset + skip)
    need(WORD - skip)
    at += bytes.copy(out, offset + skip, at, at + WORD - skip)
  }
  return {
    more: () => at < bytes.byteLength,
    byte,
    varint() {
      let value = 0
      for (let scale = 1; ; scale *= 0x80) {
        const next = byte()
        value += (next & 0x7f) * scale
        if (next < 0x80) break
        if (scale >= 2 ** 28) throw new Error(`${what}: a varint runs on`)
      }
      return value
    },
    bytes(length) {
      need(length)
      const out = Buffer.from(bytes.subarray(at, at + length))
      at += length
      return out
    },
    words(count) {
      need(count)
      const out = Buffer.allocUnsafe(count * WORD)
      for (let i = 0; i < count; i++) word(out, i * WORD)
      return out
    },
    wordsToEnd() {
      const parts: Buffer[] = []
      while (at < bytes.byteLength) {
        const out = Buffer.allocUnsafe(WORD)
        word(out, 0)
        parts.push(out)
      }
      return Buffer.concat(parts)
    },
  }
}
