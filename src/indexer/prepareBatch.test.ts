import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestStore, type TestStore } from '../../test/support/createTestStore.ts'
import { buildWorld } from '../dev/buildWorld.ts'
import { type Anvil, startAnvil } from '../dev/startAnvil.ts'
import type { ChainBlock } from '../evm/fetch/chainBlock.ts'
import { detectCapabilities } from '../evm/fetch/detectCapabilities.ts'
import { fetchBlocks } from '../evm/fetch/fetchBlocks.ts'
import { createRpcClient, type RpcCall, type RpcClient } from '../evm/rpc/createRpcClient.ts'
import { createPriceGraph, type PriceGraphChain } from '../prices/createPriceGraph.ts'
import { prepareBatch } from './prepareBatch.ts'
import { startBatch } from './startBatch.ts'

const CHAIN: PriceGraphChain & { name: string } = {
  chainId: 31337,
  name: 'anvil',
  usdc: [],
  wrappedNative: null,
  dexFactories: [],
  minPoolLiquidityUsd: 0,
}

describe('prepareBatch at the head of a node with live head state (anvil)', () => {
  let anvil: Anvil
  let client: RpcClient
  let test_: TestStore
  let blocks: ChainBlock[]
  let liveHeadState = false
  /** When set, the node mines a block as the batch's first state read reaches it. */
  let mineOnRead = false
  const rpc: RpcClient = {
    request: async (call, options) => {
      await mineIfRead([call])
      return client.request(call, options)
    },
    batch: async (calls, options) => {
      await mineIfRead(calls)
      return client.batch(calls, options)
    },
    close: () => client.close(),
  }
  async function mineIfRead(calls: readonly RpcCall[]) {
    if (!mineOnRead || !calls.some((c) => c.method === 'eth_call')) return
    mineOnRead = false
    await client.request({ method: 'evm_mine' })
  }
  const head = async () =>
    Number(BigInt(await client.request<string>({ method: 'eth_blockNumber' })))

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31337 })
    const world = await buildWorld({
      rpcUrl: anvil.rpcUrl,
      chainId: 31337,
      wallets: 10,
      transfers: 100,
    })
    client = createRpcClient({ urls: [anvil.rpcUrl] })
    const caps = await detectCapabilities({
      rpc: client,
      blockNumber: world.endBlock,
      traces: 'auto',
    })
    liveHeadState = caps.liveHeadState
    blocks = await fetchBlocks({ rpc: client, from: 1n, to: world.endBlock, caps })
    test_ = await createTestStore('sqlite')
  }, 120_000)
  afterAll(async () => {
    client?.close()
    await test_?.drop()
    await anvil?.stop()
  })

  const prepare = async () => {
    const graph = createPriceGraph({ store: test_.store, chain: CHAIN })
    await graph.load()
    return prepareBatch({
      rpc,
      store: test_.store,
      state: test_.store,
      graph,
      chain: CHAIN,
      batch: startBatch({ rpc, chainId: CHAIN.chainId, blocks, readAhead: false }),
      keepUndo: true,
      liveHeadState,
    })
  }

  test('behavior: a batch ending at the head writes nothing when the node mines while it reads', async () => {
    expect(liveHeadState).toBe(true)
    const last = Number(blocks[blocks.length - 1]?.number)
    expect(await head()).toBe(last)
    // The same batch with the head standing still is prepared in full.
    const settled = await prepare()
    expect(settled.type).toBe('prepared')
    if (settled.type === 'prepared') expect(settled.write.state.length).toBeGreaterThan(0)
    expect(await head()).toBe(last)

    mineOnRead = true
    const moved = await prepare()
    expect(mineOnRead).toBe(false)
    expect(await head()).toBe(last + 1)
    expect(moved.type).toBe('unsettled')

    // Once the head has moved past it, the batch is no longer at the head: prepared again.
    const after = await prepare()
    expect(after.type).toBe('prepared')
  })
})
