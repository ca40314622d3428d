/** `0x`-prefixed hex text as bytes, for columns stored as bytes (migration 0014). */
export function hexToBytes(hex: string): Buffer {
  return Buffer.from(hex.slice(2), 'hex')
}

/** Stored bytes as `0x`-prefixed lowercase hex text. */
export function bytesToHex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`
}
