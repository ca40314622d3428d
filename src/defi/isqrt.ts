/** The integer square root, rounded down (what Uniswap V2's `Math.sqrt` returns). */
export function isqrt(value: bigint): bigint {
  if (value < 0n) throw new RangeError(`Square root of a negative number (${value}).`)
  if (value < 2n) return value
  // Newton's method from above: decreases strictly until it reaches floor(√value).
  let x = value
  let y = (x + 1n) >> 1n
  while (y < x) {
    x = y
    y = (x + value / x) >> 1n
  }
  return x
}
