import { readPubkey, readU64 } from './readBytes.ts'

export type TokenAccount = { mint: string; owner: string; amount: bigint }

/**
 * An SPL Token or Token-2022 token account: mint (0..32), owner (32..64), amount u64 (64..72)
 * of the 165-byte base layout (Token-2022 extensions follow it and do not move these).
 */
export function parseTokenAccount(data: Uint8Array): TokenAccount | undefined {
  if (data.length < 165) return undefined
  return { mint: readPubkey(data, 0), owner: readPubkey(data, 32), amount: readU64(data, 64) }
}
