import { getV2FeeLiquidity } from './getV2FeeLiquidity.ts'

/**
 * What a Uniswap V2 pair's `burn` pays for `liquidity` LP tokens, in integer math as the pair
 * does it: the pending protocol fee is minted first (it dilutes every LP), then each amount is
 * `liquidity · balance / totalSupply`, rounded down. Balances (`balanceOf(pair)` of each token)
 * are used, not reserves: tokens sent to the pair and not yet synced go to the burner too.
 *
 * The pair itself reverts when an amount would be 0 (`INSUFFICIENT_LIQUIDITY_BURNED`); here
 * that is a 0 amount.
 */
export function getV2BurnAmounts({
  liquidity,
  balance0,
  balance1,
  reserve0,
  reserve1,
  totalSupply,
  kLast,
  feeOn,
}: {
  /** LP tokens burned. */
  liquidity: bigint
  /** `token0.balanceOf(pair)`. */
  balance0: bigint
  /** `token1.balanceOf(pair)`. */
  balance1: bigint
  /** From `getReserves()`. */
  reserve0: bigint
  reserve1: bigint
  /** The pair's `totalSupply()` before the fee mint. */
  totalSupply: bigint
  kLast: bigint
  /** Whether the factory's `feeTo()` is set. */
  feeOn: boolean
}): { amount0: bigint; amount1: bigint; feeLiquidity: bigint } {
  const feeLiquidity = getV2FeeLiquidity({ reserve0, reserve1, totalSupply, kLast, feeOn })
  const supply = totalSupply + feeLiquidity
  if (supply === 0n) return { amount0: 0n, amount1: 0n, feeLiquidity }
  return {
    amount0: (liquidity * balance0) / supply,
    amount1: (liquidity * balance1) / supply,
    feeLiquidity,
  }
}
