import { decodeBase58 } from './base58.ts'

/**
 * A Solana address (base58 of 32 bytes) in its canonical text, or `undefined` when `text` is
 * not one. Canonical means re-encoding gives the same text (no stray leading '1's).
 */
export function parseSvmAddress(text: string): string | undefined {
  if (text.length < 32 || text.length > 44) return undefined
  const bytes = decodeBase58(text)
  return bytes?.length === 32 ? text : undefined
}
