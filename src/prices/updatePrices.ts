import type { ChainConfig } from '../config/types.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address } from '../evm/types.ts'
import type { Store } from '../store/createStore.ts'
import type { PoolTable, TokenPriceTable } from '../store/schema.ts'
import type { StateChange } from '../store/stateTables.ts'
import { fromU256 } from '../store/u256.ts'
import { computePrices, type PricingPool, type TokenPrice } from './computePrices.ts'
import { diffPrices } from './diffPrices.ts'
import type { PoolIdentity, PoolType } from './poolTypes.ts'
import { readPoolUpdates } from './readPoolUpdates.ts'

export type PriceUpdate = {
  changes: StateChange[]
  /** Every price after the batch when they were recomputed; otherwise undefined. */
  prices: ReadonlyMap<Address, TokenPrice> | undefined
}

/**
 * Pools and prices for one batch: reads the touched pools at the batch's last block and,
 * when a trusted pool changed, recomputes every price of the chain from all trusted pools
 * and returns the changes (pool rows, prices, hourly points) for the batch's transaction.
 */
export async function updatePrices({
  rpc,
  store,
  chain,
  blockNumber,
  blockTime,
  touched,
  created,
  batchDecimals,
  signal,
}: {
  rpc: RpcClient
  store: Store
  chain: Pick<ChainConfig, 'chainId' | 'usdc' | 'dexFactories' | 'minPoolLiquidityUsd'>
  blockNumber: bigint
  blockTime: number
  touched: ReadonlyMap<Address, PoolType>
  created: readonly PoolIdentity[]
  /** Decimals of tokens first seen in this batch (not in the store yet). */
  batchDecimals: ReadonlyMap<Address, number>
  signal?: AbortSignal
}): Promise<PriceUpdate> {
  const { chainId } = chain
  if (touched.size === 0 && created.length === 0) return { changes: [], prices: undefined }
  const ids = [...new Set([...touched.keys(), ...created.map((p) => p.address)])]
  const knownRows = await store.readState({ table: 'pools', chainId, ids })
  const known = new Map(knownRows.map((r) => [r.address as Address, r]))
  const updated = await readPoolUpdates({
    rpc,
    chainId,
    blockNumber,
    touched,
    created,
    known,
    factories: chain.dexFactories,
    ...(signal ? { signal } : {}),
  })
  const changes: StateChange[] = updated.map((row) => ({
    table: 'pools',
    key: { chain_id: chainId, address: row.address },
    row,
  }))
  if (!updated.some((r) => r.trusted === 1)) return { changes, prices: undefined }

  const db = store.db
  const stored = await db
    .selectFrom('pools')
    .selectAll()
    .where('chain_id', '=', chainId)
    .where('trusted', '=', 1)
    .execute()
  // Only pools of factories configured now: removing a factory from config stops its pools.
  const configured = new Set(chain.dexFactories.map((f) => `${f.type}|${f.address}`))
  const rows = new Map<string, PoolTable>()
  for (const r of [...stored, ...updated]) {
    if (r.trusted === 1 && configured.has(`${r.type}|${r.factory}`)) rows.set(r.address, r)
  }
  const pools = [...rows.values()].flatMap(toPricingPool)
  const tokens = [...new Set(pools.flatMap((p) => [p.token0, p.token1]))]
  const decimals = new Map<Address, number>(batchDecimals)
  const tokenRows = await store.readState({ table: 'tokens', chainId, ids: tokens })
  for (const t of tokenRows) if (t.decimals !== null) decimals.set(t.address as Address, t.decimals)

  const prices = computePrices({
    pools,
    decimals,
    anchors: chain.usdc,
    minLiquidityUsd: chain.minPoolLiquidityUsd,
  })
  const previousRows = await db
    .selectFrom('token_prices')
    .selectAll()
    .where('chain_id', '=', chainId)
    .execute()
  const previous = new Map<Address, TokenPriceTable>(
    previousRows.map((r) => [r.token as Address, r]),
  )
  changes.push(
    ...diffPrices({ chainId, previous, next: prices, blockNumber: Number(blockNumber), blockTime }),
  )
  return { changes, prices }
}

function toPricingPool(row: PoolTable): PricingPool[] {
  if (!row.token0 || !row.token1 || row.reserve0 === null || row.reserve1 === null) return []
  return [
    {
      address: row.address as Address,
      type: row.type,
      token0: row.token0 as Address,
      token1: row.token1 as Address,
      reserve0: fromU256(row.reserve0),
      reserve1: fromU256(row.reserve1),
      sqrtPriceX96: row.sqrt_price_x96 === null ? null : fromU256(row.sqrt_price_x96),
      liquidity: row.liquidity === null ? null : fromU256(row.liquidity),
    },
  ]
}
