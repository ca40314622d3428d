import type { PoolIdentity, PoolType } from '../evm/poolTypes.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address } from '../evm/types.ts'
import type { Store } from '../store/createStore.ts'
import type { StateChange } from '../store/stateTables.ts'
import type { PriceGraph, PriceGraphChain } from './createPriceGraph.ts'
import { readPoolUpdates } from './readPoolUpdates.ts'

/**
 * Pools and prices for one batch: reads the pools it touched or created at its last block,
 * and moves the chain's price graph with them. Returns the changes (pool rows, prices, hourly
 * points) for the batch's transaction.
 */
export async function updatePrices({
  rpc,
  state,
  graph,
  chain,
  blockNumber,
  blockTime,
  touched,
  created,
  batchDecimals,
  signal,
}: {
  rpc: RpcClient
  /** Current pool rows (the store with the batches not yet committed). */
  state: Pick<Store, 'readState'>
  graph: PriceGraph
  chain: PriceGraphChain
  blockNumber: bigint
  blockTime: number
  touched: ReadonlyMap<Address, PoolType>
  created: readonly PoolIdentity[]
  /** Decimals of tokens first seen in this batch (not in the store yet). */
  batchDecimals: ReadonlyMap<Address, number>
  signal?: AbortSignal
}): Promise<StateChange[]> {
  const { chainId } = chain
  if (touched.size === 0 && created.length === 0) return []
  const ids = [...new Set([...touched.keys(), ...created.map((p) => p.address)])]
  const knownRows = await state.readState({
    table: 'pools',
    chainId,
    keys: ids.map((address) => ({ address })),
  })
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
  changes.push(
    ...graph.update({
      pools: updated,
      decimals: batchDecimals,
      blockNumber: Number(blockNumber),
      blockTime,
    }),
  )
  return changes
}
