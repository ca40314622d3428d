/**
 * Token0 held by `liquidity` between two square-root prices (Q64.96, either order), rounded
 * down as when liquidity leaves a pool: L·2^96·(√b − √a) / √b / √a. SqrtPriceMath floors after
 * each division; for positive integers that equals one floor of L·2^96·(√b − √a) / (√a·√b).
 */
export function getAmount0Delta({
  sqrtRatioAX96,
  sqrtRatioBX96,
  liquidity,
}: {
  sqrtRatioAX96: bigint
  sqrtRatioBX96: bigint
  liquidity: bigint
}): bigint {
  const [lower, upper] =
    sqrtRatioAX96 <= sqrtRatioBX96 ? [sqrtRatioAX96, sqrtRatioBX96] : [sqrtRatioBX96, sqrtRatioAX96]
  if (lower <= 0n) throw new RangeError(`Square-root price ${lower} is not positive.`)
  return ((liquidity << 96n) * (upper - lower)) / upper / lower
}
