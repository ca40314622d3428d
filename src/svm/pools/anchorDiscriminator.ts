import { createHash } from 'node:crypto'

/** Anchor's account discriminator: the first 8 bytes of sha256("account:<Name>"). */
export function anchorDiscriminator(name: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`account:${name}`).digest().subarray(0, 8))
}

export function hasDiscriminator(data: Uint8Array, discriminator: Uint8Array): boolean {
  return data.length >= 8 && discriminator.every((byte, i) => data[i] === byte)
}
