import type { Store } from '../../store/createStore.ts'
import { parseTokenAccount } from '../parse/parseTokenAccount.ts'
import { POOL_LAYOUTS } from '../pools/poolLayouts.ts'
import type { Pool, PoolType } from '../pools/poolTypes.ts'
import { NATIVE_MINT } from '../programIds.ts'
import type { SvmRpc } from '../rpc/createSvmRpc.ts'
import { readPriceRows, writePriceRows } from '../store/priceRows.ts'
import type { TokenFactsService } from '../tokens/createTokenFacts.ts'
import {
  choosePoolPrice,
  type PoolQuote,
  type RoutePrice,
  type SvmPrice,
} from './choosePoolPrice.ts'

export type SvmPricer = {
  /** USD price per mint (`undefined`: no route to USDC). Cached for `ttlMs`. */
  getMany(
    mints: readonly string[],
    signal?: AbortSignal,
  ): Promise<Map<string, SvmPrice | undefined>>
}

type Entry = { price: SvmPrice | undefined; refreshedAt: number }

/**
 * Prices from pool accounts of the configured DEX programs: a token's pools against USDC and
 * against the wrapped native mint are found with `getProgramAccounts` (size + both mints),
 * their vault balances read, and the most liquid route gives the price (a route through the
 * native mint is as liquid as its weaker hop). Cached in memory and `svm_prices` for `ttlMs`.
 */
export function createSvmPricer({
  chain,
  rpc,
  store,
  tokens,
  usdcMint,
  dexPrograms,
  ttlMs = 30_000,
  noRouteTtlMs = 600_000,
  maxComputedPerCall = 16,
  maxCached = 50_000,
  now = Date.now,
}: {
  chain: string
  rpc: SvmRpc
  store: Store
  tokens: TokenFactsService
  usdcMint: string
  dexPrograms: Partial<Record<PoolType, string>>
  ttlMs?: number
  /** "No route" is kept longer: most mints a wallet holds have none. */
  noRouteTtlMs?: number
  /**
   * Mints priced from the node per call; the rest stay unpriced in that answer and are priced
   * by later calls. Each costs several `getProgramAccounts`, so one wallet full of spam
   * tokens must not queue thousands of them.
   */
  maxComputedPerCall?: number
  /** Entries kept in memory (oldest dropped first); the store keeps the rest. */
  maxCached?: number
  now?: () => number
}): SvmPricer {
  const memory = new Map<string, Entry>()
  const fresh = (entry: Entry | undefined) =>
    entry !== undefined &&
    now() - entry.refreshedAt < (entry.price === undefined ? noRouteTtlMs : ttlMs)
  const remember = (mint: string, entry: Entry) => {
    memory.delete(mint)
    memory.set(mint, entry)
    if (memory.size > maxCached) memory.delete(memory.keys().next().value as string)
  }
  const anchor: SvmPrice = {
    priceUsd: 1,
    liquidityUsd: undefined,
    poolType: undefined,
    poolAddress: undefined,
  }

  /**
   * Pools of the pair (`mint`, `other`) under every configured DEX program, either way round:
   * `getProgramAccounts` with the layout's size and both mints as `memcmp` filters, so the node
   * returns only that pair's pools (a search by one mint would return every wSOL pool).
   */
  async function findPairPools(mint: string, other: string, signal?: AbortSignal): Promise<Pool[]> {
    const searches = Object.entries(dexPrograms).flatMap(([type, programId]) => {
      const layout = POOL_LAYOUTS[type as PoolType]
      const [offsetA, offsetB] = layout.mintOffsets
      return [
        [mint, other],
        [other, mint],
      ].map(async ([a, b]) => {
        const accounts = await rpc.getProgramAccounts(
          {
            programId,
            filters: [
              { dataSize: layout.size },
              { memcmp: { offset: offsetA, bytes: a! } },
              { memcmp: { offset: offsetB, bytes: b! } },
            ],
          },
          signal,
        )
        return accounts.flatMap((x) => layout.parse({ address: x.address, data: x.data }) ?? [])
      })
    })
    const pools = (await Promise.all(searches)).flat()
    return [...new Map(pools.map((p) => [p.address, p])).values()]
  }

  async function quotePools(pools: Pool[], signal?: AbortSignal): Promise<PoolQuote[]> {
    if (pools.length === 0) return []
    const vaults = pools.flatMap((p) => [p.vaultA, p.vaultB])
    const [accounts, facts] = await Promise.all([
      rpc.getMultipleAccounts(vaults, signal),
      tokens.getMany(
        pools.flatMap((p) => [p.mintA, p.mintB]),
        signal,
      ),
    ])
    return pools.flatMap((pool, i) => {
      const a = accounts[2 * i] && parseTokenAccount(accounts[2 * i]!.data)
      const b = accounts[2 * i + 1] && parseTokenAccount(accounts[2 * i + 1]!.data)
      const decimalsA = facts.get(pool.mintA)?.decimals
      const decimalsB = facts.get(pool.mintB)?.decimals
      if (!a || !b || decimalsA === undefined || decimalsB === undefined) return []
      return [{ pool, balanceA: a.amount, balanceB: b.amount, decimalsA, decimalsB }]
    })
  }

  const usdc: RoutePrice = { priceUsd: 1, routeLiquidityUsd: Number.POSITIVE_INFINITY }

  /** Through the most liquid pool against USDC (the native mint stops here). */
  async function direct(mint: string, signal?: AbortSignal) {
    const quotes = await quotePools(await findPairPools(mint, usdcMint, signal), signal)
    return choosePoolPrice({ mint, quotes, priceOf: (o) => (o === usdcMint ? usdc : undefined) })
  }

  /**
   * Routes to USDC: direct pools, or pools against the wrapped native mint priced by its own
   * USDC pools (how most Solana liquidity is paired). The most liquid route wins.
   */
  async function compute(
    mint: string,
    signal?: AbortSignal,
  ): Promise<(SvmPrice & { routeLiquidityUsd: number }) | undefined> {
    if (mint === usdcMint) return { ...anchor, routeLiquidityUsd: Number.POSITIVE_INFINITY }
    if (mint === NATIVE_MINT) return direct(mint, signal)
    const [usdcQuotes, nativeQuotes, native] = await Promise.all([
      findPairPools(mint, usdcMint, signal).then((pools) => quotePools(pools, signal)),
      findPairPools(mint, NATIVE_MINT, signal).then((pools) => quotePools(pools, signal)),
      nativePrice(signal),
    ])
    return choosePoolPrice({
      mint,
      quotes: [...usdcQuotes, ...nativeQuotes],
      priceOf: (other) => (other === usdcMint ? usdc : other === NATIVE_MINT ? native : undefined),
    })
  }

  /** The native mint's direct price, shared by the routes of one refresh round. */
  let nativeRound: { at: number; price: Promise<RoutePrice | undefined> } | undefined
  function nativePrice(signal?: AbortSignal) {
    const cached = memory.get(NATIVE_MINT)
    if (fresh(cached) && cached?.price) {
      // the stored entry lost its route liquidity: its pool's liquidity bounds it
      const { priceUsd, liquidityUsd } = cached.price
      return Promise.resolve({ priceUsd, routeLiquidityUsd: liquidityUsd ?? 0 })
    }
    if (!nativeRound || now() - nativeRound.at >= ttlMs) {
      nativeRound = { at: now(), price: direct(NATIVE_MINT, signal) }
      nativeRound.price.catch(() => {
        nativeRound = undefined
      })
    }
    return nativeRound.price
  }

  return {
    async getMany(mints, signal) {
      const wanted = [...new Set(mints)]
      let missing = wanted.filter((mint) => !fresh(memory.get(mint)))
      if (missing.length > 0) {
        const rows = await readPriceRows({ db: store.db, chain, mints: missing })
        for (const row of rows) if (fresh(row)) remember(row.mint, row)
        missing = missing.filter((mint) => !fresh(memory.get(mint)))
      }
      if (missing.length > 0) {
        const outcomes = await Promise.all(
          missing.slice(0, maxComputedPerCall).map(async (mint) => {
            try {
              const route = await compute(mint, signal)
              const price: SvmPrice | undefined = route && {
                priceUsd: route.priceUsd,
                liquidityUsd: route.liquidityUsd,
                poolType: route.poolType,
                poolAddress: route.poolAddress,
              }
              return { mint, price }
            } catch {
              // A node refusing or timing out a pool search leaves this mint unpriced for
              // now (not cached); the balances themselves do not depend on it.
              return undefined
            }
          }),
        )
        const computed = outcomes.filter((o) => o !== undefined)
        const at = now()
        for (const { mint, price } of computed) remember(mint, { price, refreshedAt: at })
        const ordered = [...computed].sort((a, b) => (a.mint < b.mint ? -1 : 1))
        await writePriceRows({ db: store.db, chain, prices: ordered, refreshedAt: at })
      }
      return new Map(wanted.map((mint) => [mint, memory.get(mint)?.price]))
    },
  }
}
