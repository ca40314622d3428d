import { randomBytes } from 'node:crypto'

/**
 * UUID version 7 (RFC 9562) for ids that list in creation order: 48 bits of Unix milliseconds,
 * then a 12-bit counter (`rand_a`, RFC 9562 method 1) and 62 random bits. Within one
 * generator every id sorts after the one before, also within a millisecond or when the clock
 * steps back (the last time is reused and the counter goes on; past 4,095 ids in a
 * millisecond the time moves one ahead).
 */
export function createUuidV7(): (timeMs: number) => string {
  let lastTime = -1
  let counter = 0
  return (timeMs) => {
    if (timeMs > lastTime) {
      lastTime = timeMs
      // A random start in the lower half leaves room for the ids that follow in this ms.
      counter = randomBytes(2).readUInt16BE(0) & 0x7ff
    } else if (counter < 0xfff) counter++
    else {
      lastTime++
      counter = 0
    }
    const bytes = randomBytes(16)
    bytes.writeUIntBE(lastTime, 0, 6)
    bytes[6] = 0x70 | (counter >> 8)
    bytes[7] = counter & 0xff
    bytes[8] = 0x80 | (bytes[8]! & 0x3f)
    const hex = bytes.toString('hex')
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
  }
}
