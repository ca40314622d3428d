import { readPubkey, readU64 } from '../parse/readBytes.ts'
import { anchorDiscriminator, hasDiscriminator } from './anchorDiscriminator.ts'
import type { Pool } from './poolTypes.ts'

export const RAYDIUM_CPMM_SIZE = 637
export const RAYDIUM_CPMM_MINT_OFFSETS = [168, 200] as const
const DISCRIMINATOR = anchorDiscriminator('PoolState')

/**
 * Raydium CPMM `PoolState` (Anchor, 637 bytes): amm_config @8, pool_creator @40, vaults
 * token_0 @72 and token_1 @104, lp_mint @136, mints token_0 @168 and token_1 @200, …,
 * protocol fees token_0 @341 / token_1 @349 and fund fees @357 / @365 (u64), which sit in the
 * vaults but are not the pool's liquidity.
 */
export function parseRaydiumCpmm({
  address,
  data,
}: {
  address: string
  data: Uint8Array
}): Pool | undefined {
  if (data.length !== RAYDIUM_CPMM_SIZE || !hasDiscriminator(data, DISCRIMINATOR)) return undefined
  return {
    type: 'raydium_cpmm',
    address,
    vaultA: readPubkey(data, 72),
    vaultB: readPubkey(data, 104),
    mintA: readPubkey(data, 168),
    mintB: readPubkey(data, 200),
    state: {
      kind: 'reserves',
      owedA: readU64(data, 341) + readU64(data, 357),
      owedB: readU64(data, 349) + readU64(data, 365),
    },
  }
}
