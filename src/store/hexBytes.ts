/** `0x`-prefixed hex text as bytes, for columns stored as bytes (migration 0014). */
export function hexToBytes(hex: string): Buffer {
  return Buffer.from(hex.slice(2), 'hex')
}

/** Stored bytes as `0x`-prefixed lowercase hex text. */
export function bytesToHex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`
}

/** `hexToBytes` for a nullable column (addresses of the history tables, migration 0017). */
export function hexToBytesOrNull(hex: string | null): Buffer | null {
  return hex === null ? null : hexToBytes(hex)
}

/** `bytesToHex` for a nullable column. */
export function bytesToHexOrNull(bytes: Uint8Array | null): string | null {
  return bytes === null ? null : bytesToHex(bytes)
}
