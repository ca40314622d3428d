import type { Store } from '../../store/createStore.ts'
import { parseTokenAccount } from '../parse/parseTokenAccount.ts'
import { POOL_LAYOUTS } from '../pools/poolLayouts.ts'
import type { Pool, PoolType } from '../pools/poolTypes.ts'
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
 * Prices from pool accounts of the configured DEX programs: a token's pools are found with
 * `getProgramAccounts` (size + mint filters, either side), their vault balances read, and the
 * most liquid pool whose other side is priced gives the price; the other side is USDC or a
 * token priced by its own USDC pool (two hops at most). Cached in memory and `svm_prices`.
 */
export function createSvmPricer({
  chain,
  rpc,
  store,
  tokens,
  usdcMint,
  dexPrograms,
  ttlMs = 30_000,
  now = Date.now,
}: {
  chain: string
  rpc: SvmRpc
  store: Store
  tokens: TokenFactsService
  usdcMint: string
  dexPrograms: Partial<Record<PoolType, string>>
  ttlMs?: number
  now?: () => number
}): SvmPricer {
  const memory = new Map<string, Entry>()
  const fresh = (entry: Entry | undefined) =>
    entry !== undefined && now() - entry.refreshedAt < ttlMs
  const anchor: SvmPrice = {
    priceUsd: 1,
    liquidityUsd: undefined,
    poolType: undefined,
    poolAddress: undefined,
  }

  async function findPools(mint: string, signal?: AbortSignal): Promise<Pool[]> {
    const searches = Object.entries(dexPrograms).flatMap(([type, programId]) => {
      const layout = POOL_LAYOUTS[type as PoolType]
      return layout.mintOffsets.map(async (offset) => {
        const accounts = await rpc.getProgramAccounts(
          {
            programId,
            filters: [{ dataSize: layout.size }, { memcmp: { offset, bytes: mint } }],
          },
          signal,
        )
        return accounts.flatMap((a) => layout.parse({ address: a.address, data: a.data }) ?? [])
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

  /** Direct USDC pools only (`depth` 0), or also pools against tokens priced that way. */
  async function compute(
    mint: string,
    depth: number,
    signal?: AbortSignal,
  ): Promise<(SvmPrice & { routeLiquidityUsd: number }) | undefined> {
    if (mint === usdcMint) return { ...anchor, routeLiquidityUsd: Number.POSITIVE_INFINITY }
    const quotes = await quotePools(await findPools(mint, signal), signal)
    const usdc: RoutePrice = { priceUsd: 1, routeLiquidityUsd: Number.POSITIVE_INFINITY }
    const direct = choosePoolPrice({
      mint,
      quotes,
      priceOf: (other) => (other === usdcMint ? usdc : undefined),
    })
    if (depth === 0) return direct
    const others = [
      ...new Set(
        quotes
          .map((q) => (q.pool.mintA === mint ? q.pool.mintB : q.pool.mintA))
          .filter((other) => other !== usdcMint && other !== mint),
      ),
    ]
    // The other sides priced by their own USDC pools only: routes have two hops at most.
    const otherPrices = new Map<string, RoutePrice | undefined>()
    await Promise.all(
      others.map(async (other) => {
        otherPrices.set(other, await compute(other, 0, signal))
      }),
    )
    return choosePoolPrice({
      mint,
      quotes,
      priceOf: (other) => (other === usdcMint ? usdc : otherPrices.get(other)),
    })
  }

  return {
    async getMany(mints, signal) {
      const wanted = [...new Set(mints)]
      let missing = wanted.filter((mint) => !fresh(memory.get(mint)))
      if (missing.length > 0) {
        const rows = await readPriceRows({ db: store.db, chain, mints: missing })
        for (const row of rows) if (fresh(row)) memory.set(row.mint, row)
        missing = missing.filter((mint) => !fresh(memory.get(mint)))
      }
      if (missing.length > 0) {
        const computed = await Promise.all(
          missing.map(async (mint) => {
            const route = await compute(mint, 1, signal)
            const price: SvmPrice | undefined = route && {
              priceUsd: route.priceUsd,
              liquidityUsd: route.liquidityUsd,
              poolType: route.poolType,
              poolAddress: route.poolAddress,
            }
            return { mint, price }
          }),
        )
        const at = now()
        for (const { mint, price } of computed) memory.set(mint, { price, refreshedAt: at })
        await writePriceRows({ db: store.db, chain, prices: computed, refreshedAt: at })
      }
      return new Map(wanted.map((mint) => [mint, memory.get(mint)?.price]))
    },
  }
}
