/** A stored price: in its parent's units, or in USD without a parent (`token_prices`). */
export type RelativeRow = {
  token: string
  parent: string | null
  price: number
  /** The pricing pool's size in the parent's units (current prices only). */
  pool_size?: number
}

export type ResolvedPrice = { priceUsd: number; poolSizeUsd: number }

/** Routes are a few hops; a longer chain of parents means the rows are inconsistent. */
const MAX_DEPTH = 16

/**
 * USD prices from stored relative rows: a token's price is its parent's USD price times its
 * own, up to a row without a parent or an anchor (always $1). The arithmetic is the price
 * graph's (parent first, then times the relative price), so a price read back equals the one
 * the indexer computed. A token whose parents do not reach USD (a row missing, a cycle) has
 * no price. Pure.
 */
export function resolvePrices({
  rows,
  anchors,
}: {
  rows: Iterable<RelativeRow>
  anchors: readonly string[]
}): Map<string, ResolvedPrice> {
  const byToken = new Map<string, RelativeRow>()
  for (const row of rows) byToken.set(row.token, row)
  const anchorSet = new Set(anchors)
  const usd = new Map<string, number | null>()

  const usdOf = (token: string, depth: number): number | null => {
    if (anchorSet.has(token)) return 1
    const known = usd.get(token)
    if (known !== undefined) return known
    const row = byToken.get(token)
    let price: number | null = null
    if (row && row.parent === null) price = row.price
    else if (row?.parent && depth < MAX_DEPTH) {
      const parent = usdOf(row.parent, depth + 1)
      price = parent === null ? null : parent * row.price
    }
    usd.set(token, price)
    return price
  }

  const out = new Map<string, ResolvedPrice>()
  for (const row of byToken.values()) {
    const priceUsd = usdOf(row.token, 0)
    if (priceUsd === null) continue
    const parentUsd = row.parent === null ? 1 : usdOf(row.parent, 0)
    out.set(row.token, { priceUsd, poolSizeUsd: (row.pool_size ?? 0) * (parentUsd ?? 0) })
  }
  return out
}
