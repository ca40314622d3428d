import { readPubkey, readU128 } from '../parse/readBytes.ts'
import { anchorDiscriminator, hasDiscriminator } from './anchorDiscriminator.ts'
import type { Pool } from './poolTypes.ts'

export const RAYDIUM_CLMM_SIZE = 1544
export const RAYDIUM_CLMM_MINT_OFFSETS = [73, 105] as const
const DISCRIMINATOR = anchorDiscriminator('PoolState')

/**
 * Raydium CLMM `PoolState` (Anchor, 1544 bytes): bump @8, amm_config @9, owner @41, mints
 * token_0 @73 and token_1 @105, vaults token_0 @137 and token_1 @169, observation @201,
 * decimals @233/@234, tick_spacing u16 @235, liquidity u128 @237, sqrt_price_x64 u128 @253.
 */
export function parseRaydiumClmm({
  address,
  data,
}: {
  address: string
  data: Uint8Array
}): Pool | undefined {
  if (data.length !== RAYDIUM_CLMM_SIZE || !hasDiscriminator(data, DISCRIMINATOR)) return undefined
  return {
    type: 'raydium_clmm',
    address,
    mintA: readPubkey(data, 73),
    mintB: readPubkey(data, 105),
    vaultA: readPubkey(data, 137),
    vaultB: readPubkey(data, 169),
    state: { kind: 'sqrtPrice', sqrtPriceX64: readU128(data, 253), liquidity: readU128(data, 237) },
  }
}
