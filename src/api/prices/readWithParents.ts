import type { RelativeRow } from '../../prices/resolvePrices.ts'

/** Rounds of parents to read: routes are a few hops (token → WETH → USDC). */
const MAX_DEPTH = 8

/**
 * The price rows of `tokens` and of their parents up to USD, a round of indexed key lookups
 * per level of the routes (usually two). An anchor is $1: its row is read when asked for (it
 * holds the anchor's pool size), never as a parent. One statement with a recursive CTE was
 * tried first: PostgreSQL planned its recursive step as a hash join over every row of the
 * chain (150 ms for 200 tokens among 100,000 prices, against 2–5 ms for these rounds). The
 * rounds read at slightly different moments, so a batch committed in between can pair a
 * token's row with its parent's next one: one batch apart at most.
 */
export async function readWithParents<Row extends RelativeRow>({
  tokens,
  anchors,
  read,
}: {
  tokens: readonly string[]
  anchors: readonly string[]
  /** The rows of these tokens (some may have none). */
  read: (tokens: readonly string[]) => Promise<readonly Row[]>
}): Promise<Row[]> {
  const rows = new Map<string, Row>()
  const anchorSet = new Set(anchors)
  let wanted = [...new Set(tokens)]
  for (let depth = 0; wanted.length > 0 && depth < MAX_DEPTH; depth++) {
    for (const row of await read(wanted)) rows.set(row.token, row)
    const parents = new Set<string>()
    for (const t of wanted) {
      const parent = rows.get(t)?.parent
      if (parent && !rows.has(parent) && !anchorSet.has(parent)) parents.add(parent)
    }
    wanted = [...parents]
  }
  return [...rows.values()]
}
