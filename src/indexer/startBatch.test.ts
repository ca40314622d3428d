import { createPublicClient, erc20Abi, http } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildWorld } from '../dev/buildWorld.ts'
import { type Anvil, startAnvil } from '../dev/startAnvil.ts'
import { decodeUint } from '../evm/decode/decodeMetadataString.ts'
import type { ChainBlock } from '../evm/fetch/chainBlock.ts'
import { detectCapabilities } from '../evm/fetch/detectCapabilities.ts'
import { fetchBlocks } from '../evm/fetch/fetchBlocks.ts'
import { balanceOfCall, totalSupplyCall } from '../evm/read/batchStateCalls.ts'
import { callKey } from '../evm/read/readAtBlock.ts'
import { createRpcClient, type RpcClient } from '../evm/rpc/createRpcClient.ts'
import { startBatch } from './startBatch.ts'

describe('startBatch against anvil', () => {
  let anvil: Anvil
  let rpc: RpcClient
  let blocks: ChainBlock[]
  let requests = 0
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31337 })
    const world = await buildWorld({
      rpcUrl: anvil.rpcUrl,
      chainId: 31337,
      wallets: 20,
      transfers: 300,
    })
    const client = createRpcClient({ urls: [anvil.rpcUrl] })
    // Every request to the node counted: a batch not read ahead must not ask anything.
    rpc = {
      request: (call, options) => {
        requests++
        return client.request(call, options)
      },
      batch: (calls, options) => {
        requests += calls.length
        return client.batch(calls, options)
      },
      close: () => client.close(),
    }
    const caps = await detectCapabilities({ rpc, blockNumber: world.endBlock, traces: 'auto' })
    blocks = await fetchBlocks({ rpc, from: 1n, to: world.endBlock, caps })
  }, 120_000)
  afterAll(async () => {
    rpc?.close()
    await anvil?.stop()
  })

  test('behavior: the reads made ahead equal the node at the last block, by hash', async () => {
    const batch = startBatch({ rpc, chainId: 31337, blocks, readAhead: true })
    const ready = await batch.ready
    const last = blocks[blocks.length - 1]!
    expect(ready?.blockHash).toBe(last.hash)
    const node = createPublicClient({ transport: http(anvil.rpcUrl) })
    const at = { blockNumber: last.number }
    expect(batch.touched.erc20.size).toBeGreaterThan(0)
    let pairs = 0
    for (const [token, holders] of batch.touched.erc20) {
      const supply = ready?.calls.get(callKey(totalSupplyCall(token)))
      const expected = await node.readContract({
        ...at,
        address: token,
        abi: erc20Abi,
        functionName: 'totalSupply',
      })
      expect(supply && decodeUint(supply)).toBe(expected)
      for (const holder of holders.keys()) {
        const balance = ready?.calls.get(callKey(balanceOfCall(token, holder)))
        const onNode = await node.readContract({
          ...at,
          address: token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [holder],
        })
        expect(balance && decodeUint(balance), `${token} ${holder}`).toBe(onNode)
        pairs++
      }
    }
    expect(pairs).toBeGreaterThan(20)
    expect(batch.touched.native.size).toBeGreaterThan(20)
    for (const address of batch.touched.native) {
      expect(ready?.native.get(address)).toBe(await node.getBalance({ ...at, address }))
    }
  })

  test('behavior: a batch not read ahead (one that may end at a live head) asks the node nothing', () => {
    const before = requests
    const batch = startBatch({ rpc, chainId: 31337, blocks, readAhead: false })
    expect(batch.ready).toBeUndefined()
    expect(batch.rows.transactions.length).toBeGreaterThan(0)
    expect(requests).toBe(before)
  })
})
