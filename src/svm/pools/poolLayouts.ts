import {
  ORCA_WHIRLPOOL_MINT_OFFSETS,
  ORCA_WHIRLPOOL_SIZE,
  parseOrcaWhirlpool,
} from './parseOrcaWhirlpool.ts'
import {
  parseRaydiumAmmV4,
  RAYDIUM_AMM_V4_MINT_OFFSETS,
  RAYDIUM_AMM_V4_SIZE,
} from './parseRaydiumAmmV4.ts'
import {
  parseRaydiumClmm,
  RAYDIUM_CLMM_MINT_OFFSETS,
  RAYDIUM_CLMM_SIZE,
} from './parseRaydiumClmm.ts'
import {
  parseRaydiumCpmm,
  RAYDIUM_CPMM_MINT_OFFSETS,
  RAYDIUM_CPMM_SIZE,
} from './parseRaydiumCpmm.ts'
import type { Pool, PoolType } from './poolTypes.ts'

export type PoolLayout = {
  type: PoolType
  /** Account size: the `dataSize` filter of `getProgramAccounts`. */
  size: number
  /** Offsets of the two mints: `memcmp` filters find a token's pools on either side. */
  mintOffsets: readonly [number, number]
  parse(args: { address: string; data: Uint8Array }): Pool | undefined
}

export const POOL_LAYOUTS: Record<PoolType, PoolLayout> = {
  raydium_amm_v4: {
    type: 'raydium_amm_v4',
    size: RAYDIUM_AMM_V4_SIZE,
    mintOffsets: RAYDIUM_AMM_V4_MINT_OFFSETS,
    parse: parseRaydiumAmmV4,
  },
  raydium_cpmm: {
    type: 'raydium_cpmm',
    size: RAYDIUM_CPMM_SIZE,
    mintOffsets: RAYDIUM_CPMM_MINT_OFFSETS,
    parse: parseRaydiumCpmm,
  },
  raydium_clmm: {
    type: 'raydium_clmm',
    size: RAYDIUM_CLMM_SIZE,
    mintOffsets: RAYDIUM_CLMM_MINT_OFFSETS,
    parse: parseRaydiumClmm,
  },
  orca_whirlpool: {
    type: 'orca_whirlpool',
    size: ORCA_WHIRLPOOL_SIZE,
    mintOffsets: ORCA_WHIRLPOOL_MINT_OFFSETS,
    parse: parseOrcaWhirlpool,
  },
}
