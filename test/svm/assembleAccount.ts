import { createHash } from 'node:crypto'
import { PublicKey } from '@solana/web3.js'

/** One piece of a hand-written account: appended in order; `at` pads to an offset. */
export type Segment =
  | ['u8' | 'u16' | 'u32', number]
  | ['u64' | 'u128', string]
  | ['pubkey', string]
  | ['borsh', string, number?]
  | ['zeros', number]
  | ['at', number]
  | ['discriminator', string]
  | ['tlv', number, Segment[]]

/** Bytes of a fixture account (test/svm/fixtures/accounts.json). */
export function assembleAccount(segments: readonly Segment[]): Uint8Array {
  const parts: Buffer[] = []
  let length = 0
  const push = (buffer: Buffer) => {
    parts.push(buffer)
    length += buffer.length
  }
  for (const segment of segments) {
    const [type] = segment
    const buffer = (size: number) => Buffer.alloc(size)
    if (type === 'u8') push(Buffer.of(segment[1]))
    else if (type === 'u16') {
      const b = buffer(2)
      b.writeUInt16LE(segment[1])
      push(b)
    } else if (type === 'u32') {
      const b = buffer(4)
      b.writeUInt32LE(segment[1])
      push(b)
    } else if (type === 'u64') {
      const b = buffer(8)
      b.writeBigUInt64LE(BigInt(segment[1]))
      push(b)
    } else if (type === 'u128') {
      const value = BigInt(segment[1])
      const b = buffer(16)
      b.writeBigUInt64LE(value & ((1n << 64n) - 1n))
      b.writeBigUInt64LE(value >> 64n, 8)
      push(b)
    } else if (type === 'pubkey') push(new PublicKey(segment[1]).toBuffer())
    else if (type === 'borsh') {
      const text = Buffer.from(segment[1], 'utf8')
      const padded = Buffer.alloc(Math.max(text.length, segment[2] ?? 0))
      text.copy(padded)
      const b = buffer(4)
      b.writeUInt32LE(padded.length)
      push(Buffer.concat([b, padded]))
    } else if (type === 'zeros') push(buffer(segment[1]))
    else if (type === 'at') {
      if (segment[1] < length) throw new Error(`fixture offset ${segment[1]} is behind ${length}`)
      push(buffer(segment[1] - length))
    } else if (type === 'discriminator')
      push(createHash('sha256').update(`account:${segment[1]}`).digest().subarray(0, 8))
    else if (type === 'tlv') {
      const value = Buffer.from(assembleAccount(segment[2]))
      const head = buffer(4)
      head.writeUInt16LE(segment[1])
      head.writeUInt16LE(value.length, 2)
      push(Buffer.concat([head, value]))
    }
  }
  return new Uint8Array(Buffer.concat(parts, length))
}
