import { readPubkey, readU64 } from '../parse/readBytes.ts'
import type { Pool } from './poolTypes.ts'

export const RAYDIUM_AMM_V4_SIZE = 752
/** Offsets of coin (base) and pc (quote) mints: the keys pools are looked up by. */
export const RAYDIUM_AMM_V4_MINT_OFFSETS = [400, 432] as const

/**
 * Raydium AMM v4 `AmmInfo` (752 bytes, no discriminator): 16 u64 parameters (status @0),
 * 8 u64 fees, then `OutPutData` whose first two u64 are need_take_pnl_coin @192 and
 * need_take_pnl_pc @200; vaults token_coin @336 and token_pc @368, mints coin @400 and pc
 * @432. Status 0 is uninitialized.
 */
export function parseRaydiumAmmV4({
  address,
  data,
}: {
  address: string
  data: Uint8Array
}): Pool | undefined {
  if (data.length !== RAYDIUM_AMM_V4_SIZE || readU64(data, 0) === 0n) return undefined
  return {
    type: 'raydium_amm_v4',
    address,
    vaultA: readPubkey(data, 336),
    vaultB: readPubkey(data, 368),
    mintA: readPubkey(data, 400),
    mintB: readPubkey(data, 432),
    state: { kind: 'reserves', owedA: readU64(data, 192), owedB: readU64(data, 200) },
  }
}
