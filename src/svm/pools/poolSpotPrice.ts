import type { Pool } from './poolTypes.ts'

/**
 * The pool's own spot price of one whole token A in whole tokens B, or `undefined` when the
 * pool is empty. `balanceA`/`balanceB` are the vault balances in base units.
 */
export function poolSpotPrice({
  pool,
  decimalsA,
  decimalsB,
  balanceA,
  balanceB,
}: {
  pool: Pool
  decimalsA: number
  decimalsB: number
  balanceA: bigint
  balanceB: bigint
}): number | undefined {
  const scale = 10 ** (decimalsA - decimalsB)
  switch (pool.state.kind) {
    case 'reserves': {
      const a = balanceA - pool.state.owedA
      const b = balanceB - pool.state.owedB
      if (a <= 0n || b <= 0n) return undefined
      return (Number(b) / Number(a)) * scale
    }
    case 'sqrtPrice': {
      if (pool.state.sqrtPriceX64 === 0n) return undefined
      const sqrt = Number(pool.state.sqrtPriceX64) / 2 ** 64
      return sqrt * sqrt * scale
    }
    default: {
      const never: never = pool.state
      throw new Error(`unknown pool state ${JSON.stringify(never)}`)
    }
  }
}
