import type { PoolIdentity, PoolType } from '../evm/poolTypes.ts'
import type { ContractCall } from '../evm/read/readAtBlock.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../evm/types.ts'
import type { Store } from '../store/createStore.ts'
import type { PoolTable } from '../store/schema.ts'
import type { StateChange } from '../store/stateTables.ts'
import type { PriceGraph, PriceGraphChain } from './createPriceGraph.ts'
import { planPoolUpdates } from './planPoolUpdates.ts'

/** A batch's pools and prices: the reads to make at its last block, and how to finish. */
export type PricePlan = {
  /** Pool states at the batch's last block (made with its other reads there). */
  calls: ContractCall[]
  /**
   * Moves the chain's price graph with the pools read; returns the changes (pool rows,
   * prices, hourly points) for the batch's transaction.
   */
  finish(args: {
    rpc: RpcClient
    graph: PriceGraph
    blockNumber: bigint
    blockHash?: Hex | undefined
    blockTime: number
    results: readonly (Hex | undefined)[]
    /** Decimals of the tokens this batch touched or first saw (the new ones not in the store yet). */
    batchDecimals: ReadonlyMap<Address, number>
    signal?: AbortSignal | undefined
  }): Promise<StateChange[]>
}

/**
 * Pools and prices for one batch: the pools it touched or created are read at its last block
 * (`planPoolUpdates`), and the chain's price graph moves with them.
 */
export async function planPriceUpdates({
  state,
  chain,
  touched,
  created,
}: {
  /** Current pool rows (the store with the batches not yet committed). */
  state: Pick<Store, 'readState'>
  chain: PriceGraphChain
  touched: ReadonlyMap<Address, PoolType>
  created: readonly PoolIdentity[]
}): Promise<PricePlan> {
  const { chainId } = chain
  if (touched.size === 0 && created.length === 0) return { calls: [], finish: async () => [] }
  const ids = [...new Set([...touched.keys(), ...created.map((p) => p.address)])]
  const knownRows = await state.readState({
    table: 'pools',
    chainId,
    keys: ids.map((address) => ({ address })),
  })
  const pools = planPoolUpdates({
    chainId,
    touched,
    created,
    known: new Map(knownRows.map((r) => [r.address as Address, r])),
    factories: chain.dexFactories,
  })
  return {
    calls: pools.calls,
    async finish({
      rpc,
      graph,
      blockNumber,
      blockHash,
      blockTime,
      results,
      batchDecimals,
      signal,
    }) {
      const updated = await pools.finish({ rpc, blockNumber, blockHash, results, signal })
      const changes: StateChange[] = updated.map((row) => ({
        table: 'pools',
        key: { chain_id: chainId, address: row.address },
        row,
      }))
      changes.push(
        ...graph.update({
          pools: updated,
          decimals: await poolDecimals({ state, chainId, graph, pools: updated, batchDecimals }),
          blockNumber: Number(blockNumber),
          blockTime,
        }),
      )
      return changes
    },
  }
}

/**
 * Decimals of the pools' tokens that the graph lacks: from the batch where it has them, else
 * from the store (the token was seen in an earlier batch, one that touched no pool: a pair
 * created, funded and minted in blocks of their own, without the token itself moving in the
 * last). Only pools' tokens: the graph keeps what it is given for as long as it runs.
 */
async function poolDecimals({
  state,
  chainId,
  graph,
  pools,
  batchDecimals,
}: {
  state: Pick<Store, 'readState'>
  chainId: number
  graph: PriceGraph
  pools: readonly PoolTable[]
  batchDecimals: ReadonlyMap<Address, number>
}): Promise<Map<Address, number>> {
  const out = new Map<Address, number>()
  const missing = new Set<Address>()
  for (const pool of pools) {
    for (const token of [pool.token0, pool.token1] as (Address | null)[]) {
      if (token === null || graph.hasDecimals(token)) continue
      const d = batchDecimals.get(token)
      if (d !== undefined) out.set(token, d)
      else missing.add(token)
    }
  }
  if (missing.size === 0) return out
  const rows = await state.readState({
    table: 'tokens',
    chainId,
    keys: [...missing].map((address) => ({ address })),
  })
  for (const t of rows) if (t.decimals !== null) out.set(t.address as Address, t.decimals)
  return out
}
