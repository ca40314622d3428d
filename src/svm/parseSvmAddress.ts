import { decodeBase58 } from './base58.ts'

/**
 * A Solana address (base58 of 32 bytes), or `undefined` when `text` is not one. Base58 text and
 * byte strings map one to one (each leading '1' is a leading zero byte), so a text that decodes
 * to exactly 32 bytes is already the address's only spelling.
 */
export function parseSvmAddress(text: string): string | undefined {
  if (text.length < 32 || text.length > 44) return undefined
  const bytes = decodeBase58(text)
  return bytes?.length === 32 ? text : undefined
}
