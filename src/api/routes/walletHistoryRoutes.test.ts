import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createPublicClient,
  decodeFunctionData,
  erc20Abi,
  http,
  type PublicClient,
  type Transaction,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createIndexedWorld, type IndexedWorld } from '../../../test/support/createIndexedWorld.ts'
import { createTestApi, type TestApi } from '../../../test/support/createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from '../../../test/support/createTestStore.ts'
import { testChainConfig } from '../../../test/support/testChain.ts'
import { runAbiAdd } from '../../cli/commands/abi.ts'
import type { ScryConfig } from '../../config/types.ts'
import { loadArtifact } from '../../dev/artifacts.ts'
import { activityRoutes } from './activityRoutes.ts'
import { systemRoutes } from './systemRoutes.ts'
import { transactionsRoutes } from './transactionsRoutes.ts'

// Activity and transactions on an indexed demo world, checked against the node's blocks and
// receipts, on SQLite and PostgreSQL.
const CHAIN_ID = 1
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
let w: IndexedWorld
let client: PublicClient
/** Every transaction of the node's blocks, oldest first. */
let nodeTxs: Transaction[] = []

beforeAll(async () => {
  w = await createIndexedWorld({ chainId: CHAIN_ID, transfers: 800, wallets: 20 })
  client = createPublicClient({ transport: http(w.anvil.rpcUrl) }) as PublicClient
  const blocks = await Promise.all(
    Array.from({ length: Number(w.world.endBlock) + 1 }, (_, n) =>
      client.getBlock({ blockNumber: BigInt(n), includeTransactions: true }),
    ),
  )
  nodeTxs = blocks.flatMap((b) => b.transactions)
})
afterAll(async () => {
  await w?.stop()
})

/** Walks every page of `path` with `limit`; returns the items of every page in order. */
async function walk(api: TestApi, path: string, key: 'activity' | 'transactions', limit: number) {
  const items: any[] = []
  let offset: string | undefined
  for (let page = 0; page < 5000; page++) {
    const sep = path.includes('?') ? '&' : '?'
    const url = `${path}${sep}limit=${limit}${offset ? `&offset=${encodeURIComponent(offset)}` : ''}`
    const res = await api.get(url)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.warnings).toBeUndefined()
    expect(res.body[key].length).toBeLessThanOrEqual(limit)
    items.push(...res.body[key])
    offset = res.body.next_offset
    if (offset === undefined) return items
    expect(res.body[key].length).toBe(limit)
  }
  throw new Error('too many pages')
}

const txKey = (t: any) => `${t.hash}`
const activityKey = (a: any) =>
  [a.tx_hash, a.type, a.asset_type, a.token_address, a.from, a.to, a.value, a.id, a.spender].join(
    '|',
  )

for (const dialect of DIALECTS) {
  describe(`wallet history (${dialect})`, () => {
    let t: TestStore
    let api: TestApi

    beforeAll(async () => {
      t = await createTestStore(dialect)
      await w.indexInto(t.store)
      // An operator ABI for the demo token's mint, registered before the server starts.
      const file = join(tmpdir(), `scry-demo-abi-${process.pid}-${dialect}.json`)
      writeFileSync(
        file,
        JSON.stringify([
          {
            type: 'function',
            name: 'mint',
            stateMutability: 'nonpayable',
            inputs: [
              { name: 'to', type: 'address' },
              { name: 'amount', type: 'uint256' },
            ],
            outputs: [],
          },
        ]),
      )
      const out: string[] = []
      const code = await runAbiAdd({
        config: { database: t.url } as ScryConfig,
        name: 'DemoERC20',
        file,
        write: (s) => out.push(s),
      })
      expect(code).toBe(0)
      expect(out.join('')).toBe(
        'Added ABI DemoERC20: 1 function(s), 0 event(s); running servers use it within a minute.\n',
      )
      api = await createTestApi({
        store: t.store,
        chains: [testChainConfig({ chainId: CHAIN_ID, rpc: [w.anvil.rpcUrl] })],
        routes: [systemRoutes, activityRoutes, transactionsRoutes],
      })
    })
    afterAll(async () => {
      await api?.close()
      await t?.drop()
    })

    test('default: transactions hold every transaction a wallet sent, newest first', async () => {
      for (const wallet of w.world.wallets.slice(0, 5)) {
        const sent = nodeTxs
          .filter((tx) => tx.from.toLowerCase() === wallet)
          .reverse()
          .map((tx) => tx.hash)
        expect(sent.length).toBeGreaterThan(0)
        const items = await walk(api, `/v1/evm/transactions/${wallet}`, 'transactions', 100)
        expect(items.filter((i) => i.from === wallet).map((i) => i.hash)).toEqual(sent)
        // Newest first overall, and every item is a real transaction of the node.
        const byHash = new Map(nodeTxs.map((tx) => [tx.hash, tx]))
        for (const [i, item] of items.entries()) {
          const node = byHash.get(item.hash)
          expect(node).toBeDefined()
          expect(item).toMatchObject({
            chain: 'ethereum',
            chain_id: CHAIN_ID,
            address: wallet,
            // Decimal text, as the published schema has them.
            block_number: String(node?.blockNumber),
            block_hash: node?.blockHash,
            index: String(node?.transactionIndex),
            from: node?.from.toLowerCase(),
            value: `0x${node?.value.toString(16)}`,
            nonce: `0x${node?.nonce.toString(16)}`,
            data: node?.input,
          })
          if (node?.to) expect(item.to).toBe(node.to.toLowerCase())
          const prev = items[i - 1]
          const at = (x: any) => [Number(x.block_number), Number(x.index)] as const
          if (prev)
            expect(
              at(prev)[0] > at(item)[0] ||
                (at(prev)[0] === at(item)[0] && at(prev)[1] > at(item)[1]),
            ).toBe(true)
        }
      }
    })

    test('behavior: logs and success equal the receipt', async () => {
      const wallet = w.world.wallets[3] as string
      const res = await api.get(`/v1/evm/transactions/${wallet}?limit=10`)
      expect(res.status).toBe(200)
      for (const item of res.body.transactions) {
        const receipt = await client.getTransactionReceipt({ hash: item.hash })
        expect(item.success).toBe(receipt.status === 'success')
        expect(item.logs).toEqual(
          receipt.logs.map((l) => ({
            address: l.address.toLowerCase(),
            data: l.data,
            topics: l.topics,
          })),
        )
        expect(item.decoded).toBeUndefined()
      }
    })

    test('behavior: decode=true decodes a Uniswap V2 router swap and its Transfer logs', async () => {
      const router = w.world.uniswap.v2Router.toLowerCase()
      const swapTx = nodeTxs.find(
        (tx) => tx.to?.toLowerCase() === router && tx.input.startsWith('0x38ed1739'),
      )
      expect(swapTx).toBeDefined()
      const wallet = swapTx?.from.toLowerCase() as string
      const items = await walk(
        api,
        `/v1/evm/transactions/${wallet}?decode=true`,
        'transactions',
        100,
      )
      const item = items.find((i) => i.hash === swapTx?.hash)
      const truth = decodeFunctionData({
        abi: loadArtifact('UniswapV2Router02').abi,
        data: swapTx?.input as `0x${string}`,
      })
      const [amountIn, amountOutMin, path, to, deadline] = truth.args as [
        bigint,
        bigint,
        string[],
        string,
        bigint,
      ]
      expect(item.decoded).toEqual({
        name: 'swapExactTokensForTokens',
        inputs: [
          { name: 'amountIn', type: 'uint256', value: amountIn.toString() },
          { name: 'amountOutMin', type: 'uint256', value: amountOutMin.toString() },
          { name: 'path', type: 'address[]', value: path.map((p) => p.toLowerCase()) },
          { name: 'to', type: 'address', value: to.toLowerCase() },
          { name: 'deadline', type: 'uint256', value: deadline.toString() },
        ],
      })
      const transfers = item.logs.filter((l: any) => l.topics[0] === TRANSFER_TOPIC)
      expect(transfers.length).toBeGreaterThan(0)
      for (const log of transfers) {
        expect(log.decoded.name).toBe('Transfer')
        expect(log.decoded.inputs).toEqual([
          { name: 'from', type: 'address', value: `0x${log.topics[1].slice(26)}` },
          { name: 'to', type: 'address', value: `0x${log.topics[2].slice(26)}` },
          { name: 'value', type: 'uint256', value: BigInt(log.data).toString() },
        ])
      }
      // The pair's Swap and Sync events are known too.
      const names = item.logs.map((l: any) => l.decoded?.name)
      expect(names).toContain('Swap')
      expect(names).toContain('Sync')
    })

    test('default: activity is newest first and its ERC20 transfers match the receipts', async () => {
      const wallet = w.world.wallets[2] as string
      const items = await walk(api, `/v1/evm/activity/${wallet}`, 'activity', 100)
      expect(items.length).toBeGreaterThan(20)
      for (const [i, item] of items.entries()) {
        const prev = items[i - 1]
        if (prev) expect(prev.block_number).toBeGreaterThanOrEqual(item.block_number)
        expect(item.chain_id).toBe(CHAIN_ID)
        expect(item.block_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)
      }
      const erc20 = items
        .filter((i) => i.asset_type === 'erc20' && i.type !== 'approve')
        .slice(0, 3)
      expect(erc20.length).toBeGreaterThan(0)
      for (const item of erc20) {
        const receipt = await client.getTransactionReceipt({ hash: item.tx_hash })
        const match = receipt.logs.find(
          (l) =>
            l.address.toLowerCase() === item.token_address &&
            l.topics[0] === TRANSFER_TOPIC &&
            `0x${l.topics[1]?.slice(26)}` === item.from &&
            `0x${l.topics[2]?.slice(26)}` === item.to &&
            BigInt(l.data).toString() === item.value,
        )
        expect(match, JSON.stringify(item)).toBeDefined()
        expect([item.from, item.to]).toContain(wallet)
        const symbol = await client
          .readContract({
            address: item.token_address,
            abi: erc20Abi,
            functionName: 'symbol',
            blockNumber: w.world.endBlock,
          })
          .catch(() => undefined)
        expect(item.token_metadata.standard).toBe('ERC20')
        expect(item.token_metadata.symbol).toBe(symbol)
        expect(item.tx_from).toBe(receipt.from.toLowerCase())
      }
    })

    test('behavior: call items name their function (operator ABI) or at least the selector', async () => {
      const deployer = w.world.wallets[0] as string
      const calls = await walk(
        api,
        `/v1/evm/activity/${deployer}?activity_type=call`,
        'activity',
        100,
      )
      expect(calls.length).toBeGreaterThan(0)
      // Each of its deployments (no value sent) is a call item to the new contract, without
      // a function (the input is init code); every other call names its selector.
      const deployments = nodeTxs.filter(
        (tx) => tx.to === null && tx.from.toLowerCase() === deployer.toLowerCase(),
      )
      expect(deployments.length).toBeGreaterThan(0)
      const created = new Map<string, string>()
      for (const tx of deployments) {
        const receipt = await client.getTransactionReceipt({ hash: tx.hash })
        created.set(tx.hash, String(receipt.contractAddress).toLowerCase())
      }
      for (const item of calls) {
        expect(item.type).toBe('call')
        if (created.has(item.tx_hash)) {
          expect(item).toMatchObject({ to: created.get(item.tx_hash), value: '0' })
          expect(item.function).toBeUndefined()
          expect(item.tx_to).toBeUndefined()
        } else expect(item.function.selector).toMatch(/^0x[0-9a-f]{8}$/)
      }
      expect(calls.filter((c) => created.has(c.tx_hash)).length).toBe(deployments.length)
      const mint = calls.find((c) => c.function.selector === '0x40c10f19')
      expect(mint.function).toMatchObject({ name: 'mint', signature: 'mint(address,uint256)' })
      expect(mint.function.inputs.map((i: any) => i.name)).toEqual(['to', 'amount'])
    })

    test('behavior: every page size walks each row exactly once', async () => {
      const wallet = w.world.wallets[7] as string
      const full = await walk(api, `/v1/evm/activity/${wallet}`, 'activity', 100)
      const fullTx = await walk(api, `/v1/evm/transactions/${wallet}`, 'transactions', 100)
      for (const limit of [1, 2, 7]) {
        const items = await walk(api, `/v1/evm/activity/${wallet}`, 'activity', limit)
        expect(items.map(activityKey)).toEqual(full.map(activityKey))
        const txs = await walk(api, `/v1/evm/transactions/${wallet}`, 'transactions', limit)
        expect(txs.map(txKey)).toEqual(fullTx.map(txKey))
        expect(new Set(txs.map(txKey)).size).toBe(txs.length)
      }
      // Above the maximum is reduced to it; the defaults are 20 and 100.
      const big = await api.get(`/v1/evm/activity/${wallet}?limit=100000`)
      expect(big.body.activity.length).toBe(Math.min(100, full.length))
      const dflt = await api.get(`/v1/evm/activity/${wallet}`)
      expect(dflt.body.activity.length).toBe(Math.min(20, full.length))
    })

    test('args: activity_type, asset_type, token_address and chain_ids filter', async () => {
      const wallet = w.world.wallets[4] as string
      const full = await walk(api, `/v1/evm/activity/${wallet}`, 'activity', 100)
      const cases: [string, (a: any) => boolean][] = [
        ['activity_type=transfer', (a) => a.type === 'send' || a.type === 'receive'],
        ['activity_type=send,approve', (a) => a.type === 'send' || a.type === 'approve'],
        [
          'activity_type=receive&asset_type=native',
          (a) => a.type === 'receive' && a.asset_type === 'native',
        ],
        ['asset_type=erc20,erc721', (a) => a.asset_type === 'erc20' || a.asset_type === 'erc721'],
        ['asset_type=erc1155', (a) => a.asset_type === 'erc1155'],
      ]
      const token = full.find((a) => a.asset_type === 'erc20')?.token_address
      cases.push([
        `token_address=${token.toUpperCase().replace('0X', '0x')}`,
        (a) => a.token_address === token && a.type !== 'call' && a.type !== 'swap',
      ])
      for (const [query, keep] of cases) {
        const expected = full.filter(keep).map(activityKey)
        expect(expected.length, query).toBeGreaterThan(0)
        const got = await walk(api, `/v1/evm/activity/${wallet}?${query}`, 'activity', 7)
        expect(got.map(activityKey), query).toEqual(expected)
      }
      const chain = await api.get(`/v1/evm/activity/${wallet}?chain_ids=${CHAIN_ID},999999`)
      expect(chain.status).toBe(200)
      expect(chain.body.activity.length).toBe(20)
      expect(chain.body.warnings).toEqual([
        expect.objectContaining({ code: 'UNSUPPORTED_CHAIN_IDS', chain_ids: [999999] }),
      ])
      const none = await api.get(`/v1/evm/transactions/${wallet}?chain_ids=8453`)
      expect(none.status).toBe(200)
      expect(none.body.transactions).toEqual([])
      expect(none.body.warnings?.[0]?.code).toBe('UNSUPPORTED_CHAIN_IDS')
    })

    test('behavior: a cursor from another query serves the first page with a warning', async () => {
      const a = w.world.wallets[5] as string
      const first = await api.get(`/v1/evm/activity/${a}?limit=2`)
      const offset = encodeURIComponent(first.body.next_offset)
      const other = await api.get(
        `/v1/evm/activity/${a}?limit=2&activity_type=send&offset=${offset}`,
      )
      expect(other.status).toBe(200)
      expect(other.body.warnings).toEqual([expect.objectContaining({ code: 'INVALID_OFFSET' })])
      const tx = await api.get(`/v1/evm/transactions/${a}?limit=2&offset=garbage`)
      expect(tx.body.warnings).toEqual([expect.objectContaining({ code: 'INVALID_OFFSET' })])
      expect(tx.body.transactions.length).toBe(2)
    })

    test('behavior: compute-unit costs', async () => {
      const a = w.world.wallets[1] as string
      const act = await api.get(`/v1/evm/activity/${a}?limit=1`)
      expect(act.headers.get('x-compute-units-cost')).toBe('3')
      const tx = await api.get(`/v1/evm/transactions/${a}?limit=1&decode`)
      expect(tx.headers.get('x-compute-units-cost')).toBe('1')
      const bad = await api.get(`/v1/evm/activity/${a}?activity_type=nope`)
      expect(bad.status).toBe(400)
      expect(bad.headers.get('x-compute-units-cost')).toBeNull()
      const anon = await api.get(`/v1/evm/activity/${a}`, { key: null })
      expect(anon.status).toBe(401)
    })

    test('error: bad inputs answer 400', async () => {
      const a = w.world.wallets[1] as string
      const bad = [
        '/v1/evm/activity/0x123',
        '/v1/evm/activity/0xZZ11111111111111111111111111111111111111',
        `/v1/evm/activity/${a}?activity_type=nope`,
        `/v1/evm/activity/${a}?activity_type=s%C3%A9nd`,
        `/v1/evm/activity/${a}?asset_type=nft`,
        `/v1/evm/activity/${a}?asset_type=${'erc20,'.repeat(50)}`,
        `/v1/evm/activity/${a}?token_address=0x12`,
        `/v1/evm/activity/${a}?limit=0`,
        `/v1/evm/activity/${a}?limit=-1`,
        `/v1/evm/activity/${a}?limit=abc`,
        `/v1/evm/activity/${a}?limit=1.5`,
        `/v1/evm/activity/${a}?chain_ids=ethereum`,
        '/v1/evm/transactions/0x123',
        `/v1/evm/transactions/${a}?decode=yes`,
        `/v1/evm/transactions/${a}?limit=0`,
        `/v1/evm/transactions/${a}?chain_ids=%F0%9F%92%A9`,
        `/v1/evm/transactions/${a}?offset=${'x'.repeat(5000)}`,
      ]
      for (const path of bad) {
        const res = await api.get(path)
        expect(res.status, path).toBe(400)
        expect(res.body, path).toEqual({
          error: { code: 'BAD_REQUEST', message: expect.any(String) },
        })
      }
      const msg = await api.get(`/v1/evm/activity/${a}?activity_type=send,nope`)
      expect(msg.body.error.message).toMatchInlineSnapshot(
        `"Invalid activity_type "nope": expected one of send, receive, mint, burn, swap, approve, call, transfer."`,
      )
    })
  })
}
