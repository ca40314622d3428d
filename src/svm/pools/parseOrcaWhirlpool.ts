import { readPubkey, readU128 } from '../parse/readBytes.ts'
import { anchorDiscriminator, hasDiscriminator } from './anchorDiscriminator.ts'
import type { Pool } from './poolTypes.ts'

export const ORCA_WHIRLPOOL_SIZE = 653
export const ORCA_WHIRLPOOL_MINT_OFFSETS = [101, 181] as const
const DISCRIMINATOR = anchorDiscriminator('Whirlpool')

/**
 * Orca `Whirlpool` (Anchor, 653 bytes): whirlpools_config @8, bump @40, tick_spacing @41,
 * fee tier seed @43, fee_rate @45, protocol_fee_rate @47, liquidity u128 @49, sqrt_price
 * u128 @65, tick_current_index @81, protocol fees owed @85/@93, token_mint_a @101,
 * token_vault_a @133, fee_growth_global_a @165, token_mint_b @181, token_vault_b @213.
 */
export function parseOrcaWhirlpool({
  address,
  data,
}: {
  address: string
  data: Uint8Array
}): Pool | undefined {
  if (data.length !== ORCA_WHIRLPOOL_SIZE || !hasDiscriminator(data, DISCRIMINATOR))
    return undefined
  return {
    type: 'orca_whirlpool',
    address,
    mintA: readPubkey(data, 101),
    vaultA: readPubkey(data, 133),
    mintB: readPubkey(data, 181),
    vaultB: readPubkey(data, 213),
    state: { kind: 'sqrtPrice', sqrtPriceX64: readU128(data, 65), liquidity: readU128(data, 49) },
  }
}
