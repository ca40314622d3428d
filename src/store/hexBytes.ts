/** `0x`-prefixed hex text as bytes, for columns stored as bytes (migration 0014). */
export function hexToBytes(hex: string): Buffer {
  return Buffer.from(hex.slice(2), 'hex')
}

/** Stored bytes as `0x`-prefixed lowercase hex text. */
export function bytesToHex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`
}

/** Bytes of hex text, maybe remembered (`createHexToBytes`); callers never change them. */
export type HexToBytes = (hex: string) => Buffer

/**
 * `hexToBytes` that decodes each text once and hands out the same bytes after: a batch names
 * the same few thousand addresses hundreds of thousands of times (a lookup is ~5× cheaper than
 * decoding, and makes no buffer). One per batch, so what it holds is bounded by the batch.
 */
export function createHexToBytes(): HexToBytes {
  const known = new Map<string, Buffer>()
  return (hex) => {
    let bytes = known.get(hex)
    if (bytes === undefined) {
      bytes = hexToBytes(hex)
      known.set(hex, bytes)
    }
    return bytes
  }
}

/** `bytesToHex` for a nullable column. */
export function bytesToHexOrNull(bytes: Uint8Array | null): string | null {
  return bytes === null ? null : bytesToHex(bytes)
}
