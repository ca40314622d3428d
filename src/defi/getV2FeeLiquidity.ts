import { isqrt } from './isqrt.ts'

/**
 * LP tokens a Uniswap V2 pair mints to `feeTo` before its next mint or burn (`_mintFee`): one
 * sixth of the growth of √k since `kLast`, in liquidity. Zero when the fee is off (factory
 * `feeTo` is the zero address), when `kLast` is 0 or when √k has not grown. `k` comes from the
 * reserves, not the balances, as in the pair.
 */
export function getV2FeeLiquidity({
  reserve0,
  reserve1,
  totalSupply,
  kLast,
  feeOn,
}: {
  reserve0: bigint
  reserve1: bigint
  totalSupply: bigint
  kLast: bigint
  feeOn: boolean
}): bigint {
  if (!feeOn || kLast === 0n) return 0n
  const rootK = isqrt(reserve0 * reserve1)
  const rootKLast = isqrt(kLast)
  if (rootK <= rootKLast) return 0n
  return (totalSupply * (rootK - rootKLast)) / (rootK * 5n + rootKLast)
}
