import { encodeFunctionData, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseBlockNumbers } from '../../src/api/blockNumbersHeader.ts'
import { createPrng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { erc20Abi } from '../../src/evm/abis.ts'
import { createIndexedWorld, type IndexedWorld } from '../support/createIndexedWorld.ts'
import { createMethodFilterProxy } from '../support/createMethodFilterProxy.ts'
import { createTestApi } from '../support/createTestApi.ts'
import { createTestStore, DIALECTS } from '../support/createTestStore.ts'
import { testChainConfig } from '../support/testChain.ts'

// Acceptance: balances at 10 random past blocks and 10 random past times, for every wallet of
// a world with the odd tokens (rebasing, fee-on-transfer, no decimals, …), equal the node's
// eth_getBalance / balanceOf at that block, nothing missing; outside the served range → 400;
// a node without the state (a real anvil --prune-history, and a proxy answering geth's
// missing-state error) → 422; on SQLite and PostgreSQL.
const CHAIN_ID = 1
let w: IndexedWorld
let pruned: Anvil
const times = new Map<number, number>()

beforeAll(async () => {
  w = await createIndexedWorld({ chainId: CHAIN_ID, transfers: 400, wallets: 20 })
  const end = Number(w.world.endBlock)
  const blocks = (await rpc(
    Array.from({ length: end + 1 }, (_, n) => ({
      method: 'eth_getBlockByNumber',
      params: [toHex(n), false],
    })),
  )) as { timestamp: string }[]
  for (const [n, b] of blocks.entries()) times.set(n, Number(b.timestamp))
  // A node that keeps only its latest state, as tall as the world's chain.
  pruned = await startAnvil({ chainId: CHAIN_ID, pruneHistory: true })
  await fetch(pruned.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: [toHex(end + 5)] }),
  })
}, 300_000)
afterAll(async () => {
  await w?.stop()
  await pruned?.stop()
})

async function rpc(calls: { method: string; params: unknown[] }[], url = w.anvil.rpcUrl) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: '2.0', id, ...c }))),
  })
  const answers = (await res.json()) as { id: number; result: unknown }[]
  return answers.sort((a, b) => a.id - b.id).map((a) => a.result)
}

/** The node's non-zero balances of a wallet at a block: native and every world token. */
async function nodeBalances(wallet: `0x${string}`, block: number): Promise<Map<string, bigint>> {
  const tag = toHex(block)
  // Every ERC20 of the world: its tokens and its Uniswap V2 pairs (LP tokens; the V3 pool's
  // balanceOf reverts and counts as zero).
  const tokens = [...w.world.tokens.map((t) => t.address), ...w.world.uniswap.pools]
  const results = (await rpc([
    { method: 'eth_getBalance', params: [wallet, tag] },
    ...tokens.map((to) => ({
      method: 'eth_call',
      params: [
        {
          to,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [wallet] }),
        },
        tag,
      ],
    })),
  ])) as string[]
  const out = new Map<string, bigint>()
  const add = (key: string, hex: string | undefined) => {
    const value = hex && hex !== '0x' ? BigInt(hex) : 0n
    if (value > 0n) out.set(key, value)
  }
  add('native', results[0])
  for (const [i, t] of tokens.entries()) add(t, results[i + 1])
  return out
}

const listed = (body: { balances: { address: string; amount: string }[] }) =>
  new Map(body.balances.map((b) => [b.address, BigInt(b.amount)]))

describe('balances at a past block or time', () => {
  for (const dialect of DIALECTS) {
    test(`default: every wallet at 10 past blocks and 10 past times equals the node (${dialect})`, async () => {
      const t = await createTestStore(dialect)
      const chain = testChainConfig({ chainId: CHAIN_ID, rpc: [w.anvil.rpcUrl] })
      const api = await createTestApi({ store: t.store, chains: [chain] })
      try {
        await w.indexInto(t.store)
        const end = Number(w.world.endBlock)
        const prng = createPrng(dialect === 'sqlite' ? 7 : 8)
        const blocks = Array.from({ length: 10 }, () => 1 + prng.int(end))
        let rows = 0
        let odd = 0
        for (const block of blocks) {
          for (const wallet of w.world.wallets) {
            const res = await api.get(
              `/v1/evm/balances/${wallet}?chain_ids=${CHAIN_ID}&block_number=${block}`,
            )
            expect(res.status).toBe(200)
            expect(parseBlockNumbers(res.headers.get('x-scry-block-numbers'))).toEqual(
              new Map([[String(CHAIN_ID), block]]),
            )
            expect(listed(res.body)).toEqual(await nodeBalances(wallet, block))
            for (const b of res.body.balances) {
              expect(b.block_number).toBe(block)
              if (w.world.tokens.some((x) => x.address === b.address && x.kind !== 'erc20')) odd++
            }
            rows += res.body.balances.length
          }
        }
        expect(rows).toBeGreaterThan(100)
        expect(odd).toBeGreaterThan(10)

        // Times: each resolves to the last block at or before it.
        for (let i = 0; i < 10; i++) {
          const at = (times.get(1 + prng.int(end)) ?? 0) + prng.int(2)
          let expected = 0
          for (const [n, time] of times) if (time <= at && n > expected) expected = n
          const wallet = w.world.wallets[prng.int(w.world.wallets.length)]!
          const iso = new Date(at * 1000).toISOString()
          const res = await api.get(`/v1/evm/balances/${wallet}?chain_ids=${CHAIN_ID}&at=${iso}`)
          expect(res.status).toBe(200)
          expect(res.headers.get('x-scry-block-numbers')).toBe(`${CHAIN_ID}=${expected}`)
          expect(listed(res.body)).toEqual(await nodeBalances(wallet, expected))
          const one = await api.get(
            `/v1/evm/balances/${wallet}/token/native?chain_ids=${CHAIN_ID}&at=${at}`,
          )
          expect(BigInt(one.body.balances[0].amount)).toBe(
            (await nodeBalances(wallet, expected)).get('native') ?? 0n,
          )
        }

        // Outside the served range, and malformed requests.
        const wallet = w.world.wallets[0]!
        const above = await api.get(
          `/v1/evm/balances/${wallet}?chain_ids=${CHAIN_ID}&block_number=${end + 1}`,
        )
        expect(above.status).toBe(400)
        expect(above.body.error.message).toBe(
          `Invalid block_number: chain ${CHAIN_ID} is served from block 0 to block ${end}.`,
        )
        const noChain = await api.get(`/v1/evm/balances/${wallet}?block_number=3`)
        expect(noChain.status).toBe(400)
        const both = await api.get(
          `/v1/evm/balances/${wallet}?chain_ids=1&block_number=3&at=1700000000`,
        )
        expect(both.status).toBe(400)
        const before = await api.get(`/v1/evm/balances/${wallet}?chain_ids=1&at=1000`)
        expect(before.status).toBe(400)
        const badTime = await api.get(`/v1/evm/balances/${wallet}?chain_ids=1&at=yesterday`)
        expect(badTime.status).toBe(400)
      } finally {
        await api.close()
        await t.drop()
      }
    })
  }

  test('error: a node without the state gives 422 HISTORICAL_STATE_UNAVAILABLE, one down 503', async () => {
    const t = await createTestStore('sqlite')
    const end = Number(w.world.endBlock)
    // geth's answer for state it no longer keeps, for anything before the last 5 blocks.
    const proxy = await createMethodFilterProxy({
      target: w.anvil.rpcUrl,
      refuse: ({ method, params }) => {
        const tag = params[1]
        const old = typeof tag === 'string' && tag.startsWith('0x') && Number(tag) < end - 5
        return (method === 'eth_getBalance' || method === 'eth_call') && old
          ? {
              code: -32000,
              message: 'missing trie node 5a1b2c (path ) state 0x5a1b2c is not available',
            }
          : undefined
      },
    })
    try {
      await w.indexInto(t.store)
      const wallet = w.world.wallets[1]!
      for (const url of [proxy.url, pruned.rpcUrl]) {
        const chain = testChainConfig({ chainId: CHAIN_ID, rpc: [url] })
        const api = await createTestApi({ store: t.store, chains: [chain] })
        try {
          const res = await api.get(
            `/v1/evm/balances/${wallet}?chain_ids=${CHAIN_ID}&block_number=${end - 10}`,
          )
          expect(res.status).toBe(422)
          expect(res.body).toEqual({
            error: {
              code: 'HISTORICAL_STATE_UNAVAILABLE',
              message: `The node of chain ${CHAIN_ID} no longer has the state of block ${end - 10} (it is not an archive node); balances at that block cannot be read.`,
            },
          })
          expect(res.headers.get('x-scry-block-numbers')).toBeNull()
          const token = await api.get(
            `/v1/evm/balances/${wallet}/token/native?chain_ids=${CHAIN_ID}&block_number=${end - 10}`,
          )
          expect(token.status).toBe(422)
        } finally {
          await api.close()
        }
      }
      // A node that does not answer at all: 503, as for any source outage.
      const down = testChainConfig({ chainId: CHAIN_ID, rpc: ['http://127.0.0.1:9'] })
      const api = await createTestApi({ store: t.store, chains: [down] })
      try {
        const res = await api.get(
          `/v1/evm/balances/${wallet}?chain_ids=${CHAIN_ID}&block_number=${end - 10}`,
        )
        expect(res.status).toBe(503)
        expect(res.body.error.code).toBe('UNAVAILABLE')
      } finally {
        await api.close()
      }
    } finally {
      await proxy.close()
      await t.drop()
    }
  })
})
