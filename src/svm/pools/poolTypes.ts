/** A pool as Scry prices it: two mints, their vaults, and how the pool states its price. */
export type Pool = {
  type: PoolType
  address: string
  mintA: string
  mintB: string
  vaultA: string
  vaultB: string
  state: /** Constant-product pools: price from the vault balances less amounts owed elsewhere. */
    | { kind: 'reserves'; owedA: bigint; owedB: bigint }
    /**
     * Concentrated liquidity: sqrt(price of A in B, base units) as Q64.64, and the liquidity
     * in range at that price.
     */
    | { kind: 'sqrtPrice'; sqrtPriceX64: bigint; liquidity: bigint }
}

export const POOL_TYPES = [
  'raydium_amm_v4',
  'raydium_cpmm',
  'raydium_clmm',
  'orca_whirlpool',
] as const
export type PoolType = (typeof POOL_TYPES)[number]
