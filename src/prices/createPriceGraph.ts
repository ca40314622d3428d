import type { DexFactory } from '../evm/poolTypes.ts'
import type { Address } from '../evm/types.ts'
import type { Store } from '../store/createStore.ts'
import type { PoolTable, TokenPriceTable } from '../store/schema.ts'
import type { StateChange } from '../store/stateTables.ts'
import { fromU256 } from '../store/u256.ts'
import {
  createPriceRoutes,
  type PricedToken,
  type PriceRoutes,
  type PricingPool,
} from './createPriceRoutes.ts'
import { diffPrices } from './diffPrices.ts'

/** A token's price after a batch, or of `native` (its wrapped token's). */
export type BatchPriceOf = (
  asset: Address | 'native',
) => { priceUsd: number; poolSizeUsd: number } | undefined

export type PriceGraphChain = {
  chainId: number
  usdc: readonly Address[]
  wrappedNative: Address | null
  dexFactories: readonly DexFactory[]
  minPoolLiquidityUsd: number
}

/**
 * One chain's trusted pools and prices in memory, as they stand after the last prepared
 * batch: the pipeline prices batch N+1 before batch N is in the store, and no batch reads
 * every pool or price from the database. Loaded from the store at start and after a revert;
 * a batch's price work grows with the pools it touched (createPriceRoutes), not with the
 * number of pools.
 */
export type PriceGraph = {
  /** Replaces what the graph holds with the store's pools, decimals and prices. */
  load(): Promise<void>
  /**
   * Takes a batch's pool rows (as read at its last block) and returns the price changes they
   * cause (prices, hourly points), already applied to the graph.
   */
  update(args: {
    pools: readonly PoolTable[]
    /**
     * Decimals of the pools' tokens that the graph lacks (`hasDecimals`): a pool whose token's
     * decimals it never got prices nothing until the next load.
     */
    decimals: ReadonlyMap<Address, number>
    blockNumber: number
    blockTime: number
  }): StateChange[]
  /** Prices after the last updated batch; `native` is priced as the wrapped native token. */
  priceOf: BatchPriceOf
  /** Whether the graph has the token's decimals (from a load or an update). */
  hasDecimals(token: Address): boolean
}

export function createPriceGraph({
  store,
  chain,
}: {
  store: Store
  chain: PriceGraphChain
}): PriceGraph {
  const { chainId } = chain
  const configured = new Set(chain.dexFactories.map((f) => `${f.type}|${f.address}`))
  const fresh = () =>
    createPriceRoutes({ anchors: chain.usdc, minLiquidityUsd: chain.minPoolLiquidityUsd })
  let routes: PriceRoutes = fresh()
  /** The stored rows behind the prices (what the next diff compares with). */
  let stored = new Map<Address, TokenPriceTable>()
  /**
   * After a load, the first update compares every price with the store (config such as the
   * minimum liquidity may have changed since they were written); later ones only what moved.
   */
  let compareAll = true

  const usable = (row: PoolTable) =>
    row.trusted === 1 && configured.has(`${row.type}|${row.factory}`)

  return {
    async load() {
      const rows = await store.db
        .selectFrom('pools')
        .selectAll()
        .where('chain_id', '=', chainId)
        .where('trusted', '=', 1)
        .execute()
      routes = fresh()
      const tokens = new Set<Address>()
      for (const row of rows) {
        const pool = usable(row) ? toPricingPool(row) : undefined
        if (!pool) continue
        routes.setPool(pool.address, pool)
        tokens.add(pool.token0).add(pool.token1)
      }
      const keys = [...tokens].map((address) => ({ address }))
      for (const t of await store.readState({ table: 'tokens', chainId, keys })) {
        if (t.decimals !== null) routes.setDecimals(t.address as Address, t.decimals)
      }
      routes.settle()
      const priceRows = await store.db
        .selectFrom('token_prices')
        .selectAll()
        .where('chain_id', '=', chainId)
        .execute()
      stored = new Map(priceRows.map((r) => [r.token as Address, r]))
      compareAll = true
    },
    update({ pools: rows, decimals, blockNumber, blockTime }) {
      for (const [token, d] of decimals) routes.setDecimals(token, d)
      for (const row of rows) {
        const pool = usable(row) ? toPricingPool(row) : undefined
        routes.setPool(row.address as Address, pool ?? null)
      }
      const { changed } = routes.settle()
      if (changed.size === 0 && !compareAll) return []
      let next: Map<Address, PricedToken | undefined> = changed
      if (compareAll) {
        next = new Map<Address, PricedToken | undefined>(routes.prices())
        for (const token of stored.keys()) if (!next.has(token)) next.set(token, undefined)
        compareAll = false
      }
      const changes = diffPrices({ chainId, previous: stored, next, blockNumber, blockTime })
      for (const change of changes) {
        if (change.table !== 'token_prices') continue
        if (change.row) stored.set(change.key.token as Address, change.row as TokenPriceTable)
        else stored.delete(change.key.token as Address)
      }
      return changes
    },
    hasDecimals: (token) => routes.hasDecimals(token),
    priceOf(asset) {
      const token = asset === 'native' ? chain.wrappedNative : asset
      return token ? routes.route(token) : undefined
    },
  }
}

function toPricingPool(row: PoolTable): PricingPool | undefined {
  if (!row.token0 || !row.token1 || row.reserve0 === null || row.reserve1 === null) return undefined
  return {
    address: row.address as Address,
    type: row.type,
    token0: row.token0 as Address,
    token1: row.token1 as Address,
    reserve0: fromU256(row.reserve0),
    reserve1: fromU256(row.reserve1),
    sqrtPriceX96: row.sqrt_price_x96 === null ? null : fromU256(row.sqrt_price_x96),
    liquidity: row.liquidity === null ? null : fromU256(row.liquidity),
  }
}
