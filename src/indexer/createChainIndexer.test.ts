import pino from 'pino'
import {
  type Address,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
  publicActions,
  toHex,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { compareWithNode } from '../../test/support/compareWithNode.ts'
import { createMethodFilterProxy } from '../../test/support/createMethodFilterProxy.ts'
import { createTestApi } from '../../test/support/createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from '../../test/support/createTestStore.ts'
import { runIndexer, testChainConfig } from '../../test/support/testChain.ts'
import { resolveCatalogue } from '../chains/resolveCatalogue.ts'
import { type CompiledContracts, compileContracts } from '../dev/compileContracts.ts'
import { type Anvil, startAnvil } from '../dev/startAnvil.ts'
import { createRpcClient, type RpcClient } from '../evm/rpc/createRpcClient.ts'
import { createLogger } from '../internal/logger.ts'
import { fromU256 } from '../store/u256.ts'

const testLogger = () => createLogger({ level: process.env.LOG_LEVEL ?? 'silent', destination: 2 })

import { createChainIndexer } from './createChainIndexer.ts'

const MNEMONIC = 'test test test test test test test test test test test junk'
const accounts = [0, 1, 2, 3, 4].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }))

let anvil: Anvil
let contracts: CompiledContracts
let client: ReturnType<typeof makeClient>

function makeClient(url: string) {
  return createTestClient({ mode: 'anvil', transport: http(url), cacheTime: 0 })
    .extend(publicActions)
    .extend((c) => ({ wallet: createWalletClient({ transport: http(url), chain: c.chain }) }))
}

beforeAll(async () => {
  ;[anvil, contracts] = await Promise.all([startAnvil({ chainId: 31337 }), compileContracts()])
  client = makeClient(anvil.rpcUrl)
})
afterAll(async () => {
  await anvil?.stop()
})

async function send(tx: Parameters<typeof client.wallet.sendTransaction>[0]) {
  const hash = await client.wallet.sendTransaction(tx)
  return client.waitForTransactionReceipt({ hash })
}

async function deployToken(): Promise<Address> {
  const { abi, bytecode } = contracts.DemoERC20
  const hash = await client.wallet.deployContract({
    abi,
    bytecode,
    args: ['Demo', 'DEMO', 18],
    account: accounts[0]!,
    chain: null,
  })
  const receipt = await client.waitForTransactionReceipt({ hash })
  deployedBy.set(receipt.contractAddress as Address, hash)
  return receipt.contractAddress as Address
}

/** The deployment transaction of each token `deployToken` made. */
const deployedBy = new Map<Address, `0x${string}`>()

async function tokenCall(token: Address, from: number, functionName: string, args: unknown[]) {
  const hash = await client.wallet.writeContract({
    address: token,
    abi: contracts.DemoERC20.abi,
    functionName,
    args,
    account: accounts[from]!,
    chain: null,
  })
  return client.waitForTransactionReceipt({ hash })
}

async function activity(token: Address) {
  for (let i = 0; i < 5; i++) {
    await send({
      account: accounts[i % 5]!,
      to: accounts[(i + 1) % 5]!.address,
      value: parseEther('1.5'),
      chain: null,
    })
  }
  await tokenCall(token, 0, 'mint', [accounts[1]!.address, 1000n])
  await tokenCall(token, 1, 'transfer', [accounts[2]!.address, 300n])
  await tokenCall(token, 2, 'approve', [accounts[3]!.address, 200n])
  await tokenCall(token, 3, 'transferFrom', [accounts[2]!.address, accounts[4]!.address, 150n])
}

/**
 * Transfers of nothing (address poisoning) around a real one: 0 neither acquires the token
 * before the 10 it gets from 4, nor sends it when a stranger (3) moves 0 of its tokens.
 */
async function poison(token: Address) {
  const zeroIn = await tokenCall(token, 3, 'transfer', [accounts[0]!.address, 0n])
  const received = await tokenCall(token, 4, 'transfer', [accounts[0]!.address, 10n])
  await tokenCall(token, 3, 'transferFrom', [accounts[0]!.address, accounts[3]!.address, 0n])
  return { zeroIn: zeroIn.blockNumber, received: received.blockNumber }
}

for (const dialect of DIALECTS) {
  describe(`indexer (${dialect})`, () => {
    let t: TestStore
    afterEach(async () => {
      await t?.drop()
    })

    /** Compares the store with the node at `block` for the test wallets: no mismatch. */
    async function expectStoreEqualsNode(block: bigint) {
      const result = await compareWithNode({
        store: t.store,
        rpcUrl: anvil.rpcUrl,
        chainId: 31337,
        block,
        wallets: accounts.map((a) => a.address),
      })
      expect(result.mismatches).toEqual([])
      return result
    }

    test('default: balances, supply and allowances equal the node', async () => {
      t = await createTestStore(dialect)
      const token = await deployToken()
      await activity(token)
      const blocks = await poison(token)
      expect(blocks.received).toBeGreaterThan(blocks.zeroIn)
      const indexer = createChainIndexer({
        chain: testChainConfig({ chainId: 31337, rpc: [anvil.rpcUrl], batchSize: 3 }),
        store: t.store,
        logger: testLogger(),
      })
      const run = runIndexer({ indexer, store: t.store })
      const head = await client.getBlockNumber()
      await run.synced({ block: Number(head) })
      await run.stop()
      const { checked } = await expectStoreEqualsNode(head)
      expect(checked.tokenBalances).toBeGreaterThan(0)
      const allowance = await t.store.db
        .selectFrom('approvals')
        .selectAll()
        .where('token', '=', token.toLowerCase())
        .execute()
      expect(allowance.map((a) => [a.owner, a.spender, fromU256(a.allowance)])).toEqual([
        [accounts[2]!.address.toLowerCase(), accounts[3]!.address.toLowerCase(), 50n],
      ])
      const holder = await t.store.db
        .selectFrom('token_balances')
        .selectAll()
        .where('address', '=', accounts[2]!.address.toLowerCase())
        .executeTakeFirstOrThrow()
      expect(holder.has_initiated_transfer).toBe(1)
      expect(holder.first_acquired_time).toBeTypeOf('number')
      const poisoned = await t.store.db
        .selectFrom('token_balances')
        .selectAll()
        .where('address', '=', accounts[0]!.address.toLowerCase())
        .where('token', '=', token.toLowerCase())
        .executeTakeFirstOrThrow()
      expect(poisoned.has_initiated_transfer).toBe(0)
      expect(poisoned.first_acquired_block).toBe(Number(blocks.received))
    })

    test('edge: a token seen only through an Approval has its total supply read, as the node gives it', async () => {
      t = await createTestStore(dialect)
      const token = await deployToken()
      const approved = await tokenCall(token, 2, 'approve', [accounts[3]!.address, 5n])
      const chain = testChainConfig({ chainId: 31337, rpc: [anvil.rpcUrl], batchSize: 3 })
      const run = runIndexer({
        indexer: createChainIndexer({ chain, store: t.store, logger: testLogger() }),
        store: t.store,
      })
      try {
        await run.synced({ block: Number(approved.blockNumber) })
        const supply = await client.readContract({
          address: token,
          abi: contracts.DemoERC20.abi,
          functionName: 'totalSupply',
          blockNumber: approved.blockNumber,
        })
        const row = await t.store.db
          .selectFrom('tokens')
          .select('total_supply')
          .where('address', '=', token.toLowerCase())
          .executeTakeFirstOrThrow()
        expect(row.total_supply === null ? null : fromU256(row.total_supply)).toBe(supply)
      } finally {
        await run.stop()
      }
    })

    test('behavior: a failed transaction is a call item that moved nothing; a deployment is a call to its new contract', async () => {
      t = await createTestStore(dialect)
      const token = await deployToken()
      // A payment the token contract refuses (it has no payable function): mined, reverted.
      const failed = await send({
        account: accounts[1]!,
        to: token,
        value: parseEther('2'),
        gas: 100_000n,
        chain: null,
      })
      expect(failed.status).toBe('reverted')
      const chain = testChainConfig({ chainId: 31337, rpc: [anvil.rpcUrl], batchSize: 3 })
      const run = runIndexer({
        indexer: createChainIndexer({ chain, store: t.store, logger: testLogger() }),
        store: t.store,
      })
      const api = await createTestApi({
        store: t.store,
        chains: [chain],
        overrides: { catalogue: resolveCatalogue([{ chainId: 31337, name: 'local' }]) },
      })
      try {
        await run.synced({ block: Number(failed.blockNumber) })
        const itemOf = async (wallet: Address, hash: string) =>
          (
            await api.get(`/v1/evm/activity/${wallet}?chain_ids=31337&limit=100`)
          ).body.activity.filter((a: any) => a.tx_hash === hash)
        expect(await itemOf(accounts[1]!.address, failed.transactionHash)).toEqual([
          expect.objectContaining({
            type: 'call',
            to: token.toLowerCase(),
            value: '0',
            tx_value: parseEther('2').toString(),
          }),
        ])
        const deployment = await client.getTransactionReceipt({ hash: deployedBy.get(token)! })
        expect(await itemOf(accounts[0]!.address, deployment.transactionHash)).toEqual([
          expect.objectContaining({ type: 'call', to: token.toLowerCase(), value: '0' }),
        ])
      } finally {
        await api.close()
        await run.stop()
      }
    })

    test('behavior: a startBlock lowered on a database that began later is said at start, not filled in', async () => {
      t = await createTestStore(dialect)
      await activity(await deployToken())
      const head = Number(await client.getBlockNumber())
      const chainPollMs = 50
      const lines: { level: number; msg: string; start_block?: number }[] = []
      const logger = pino(
        { level: 'warn' },
        { write: (line: string) => lines.push(JSON.parse(line)) },
      )
      const indexFrom = async (startBlock: number) => {
        const indexer = createChainIndexer({
          chain: testChainConfig({
            chainId: 31337,
            rpc: [anvil.rpcUrl],
            startBlock,
            pollIntervalMs: chainPollMs,
          }),
          store: t.store,
          logger,
        })
        const run = runIndexer({ indexer, store: t.store })
        await run.synced({ block: head })
        // Past its start, where the check is made: it has looked at the node's head twice.
        await new Promise((r) => setTimeout(r, chainPollMs * 3))
        await run.stop()
      }
      await indexFrom(head - 2)
      expect(lines).toEqual([])
      await indexFrom(head - 2) // the same start again: nothing to say
      expect(lines).toEqual([])
      await indexFrom(0)
      expect(lines.map((l) => [l.level, l.start_block, l.msg])).toEqual([
        [
          40,
          0,
          'startBlock is below where this database began indexing the chain: the blocks before that are not indexed (index into an empty database to include them)',
        ],
      ])
      expect(await t.store.getBlockHashes({ chainId: 31337, from: 0, to: head - 3 })).toEqual(
        new Map(),
      )
    })

    test('behavior: reorgs while following the head leave state equal to the node', async () => {
      t = await createTestStore(dialect)
      const token = await deployToken()
      const indexer = createChainIndexer({
        chain: testChainConfig({ chainId: 31337, rpc: [anvil.rpcUrl] }),
        store: t.store,
        logger: testLogger(),
      })
      const run = runIndexer({ indexer, store: t.store })
      for (const depth of [1, 3, 10]) {
        await activity(token)
        const before = await client.getBlock()
        await run.synced({ block: Number(before.number), hash: before.hash })
        // Replace the last `depth` blocks with a branch holding different transactions.
        await client.request({
          method: 'anvil_reorg' as never,
          params: [
            depth,
            [
              [
                {
                  from: accounts[4]!.address,
                  to: accounts[0]!.address,
                  value: `0x${(10n ** 18n).toString(16)}`,
                },
                0,
              ],
            ],
          ] as never,
        })
        const after = await client.getBlock()
        expect(after.hash).not.toBe(before.hash)
        await run.synced({ block: Number(after.number), hash: after.hash })
        await expectStoreEqualsNode(after.number)
      }
      await run.stop()
    })

    test('error: a reorg deeper than the finality depth stops the chain with a clear error', async () => {
      t = await createTestStore(dialect)
      const indexer = createChainIndexer({
        chain: testChainConfig({
          chainId: 31337,
          rpc: [anvil.rpcUrl],
          finalityDepth: 3,
          batchSize: 2,
        }),
        store: t.store,
        logger: testLogger(),
      })
      const run = runIndexer({ indexer, store: t.store })
      for (let i = 0; i < 8; i++) {
        await send({ account: accounts[0]!, to: accounts[1]!.address, value: 1n, chain: null })
      }
      const before = await client.getBlock()
      await run.synced({ block: Number(before.number), hash: before.hash })
      const checkpoint = await t.store.getCheckpoint(31337)
      await client.request({ method: 'anvil_reorg' as never, params: [6, []] as never })
      const error = (await run.failed()) as Error
      expect(error?.name).toBe('FatalIndexerError')
      expect(error.message).toMatch(
        /^Chain 31337: reorg deeper than 3 blocks \(the finality depth\)/,
      )
      // Nothing was reverted or overwritten: the store still holds the old branch.
      expect(await t.store.getCheckpoint(31337)).toEqual(checkpoint)
    })

    test('behavior: a WebSocket newHeads subscription wakes the indexer before the next poll', async () => {
      t = await createTestStore(dialect)
      const indexer = createChainIndexer({
        chain: testChainConfig({
          chainId: 31337,
          rpc: [anvil.rpcUrl, anvil.wsUrl],
          pollIntervalMs: 600_000,
        }),
        store: t.store,
        logger: testLogger(),
      })
      const run = runIndexer({ indexer, store: t.store })
      const first = await client.getBlock()
      await run.synced({ block: Number(first.number), hash: first.hash })
      await new Promise((r) => setTimeout(r, 300)) // let the subscription settle
      await send({ account: accounts[0]!, to: accounts[1]!.address, value: 1n, chain: null })
      const next = await client.getBlock()
      // Polling alone would take ten minutes.
      await run.synced({ block: Number(next.number), hash: next.hash, timeoutMs: 10_000 })
      await run.stop()
    })

    test('behavior: a node that falls behind on the same branch is waited for, not reverted', async () => {
      t = await createTestStore(dialect)
      const indexer = createChainIndexer({
        chain: testChainConfig({ chainId: 31337, rpc: [anvil.rpcUrl] }),
        store: t.store,
        logger: testLogger(),
      })
      const run = runIndexer({ indexer, store: t.store })
      for (let i = 0; i < 4; i++) {
        await send({ account: accounts[0]!, to: accounts[1]!.address, value: 1n, chain: null })
      }
      const before = await client.getBlock()
      await run.synced({ block: Number(before.number), hash: before.hash })
      // The node drops its last 3 blocks (like a lagging fallback endpoint), keeps the rest.
      await client.request({ method: 'anvil_rollback' as never, params: [3] as never })
      await new Promise((r) => setTimeout(r, 500))
      expect(await t.store.getCheckpoint(31337)).toMatchObject({
        blockNumber: Number(before.number),
      })
      // Then it moves on along another branch: that one is a reorg, handled as usual.
      for (let i = 0; i < 4; i++) {
        await send({ account: accounts[2]!, to: accounts[3]!.address, value: 2n, chain: null })
      }
      const next = await client.getBlock()
      await run.synced({ block: Number(next.number), hash: next.hash })
      await run.stop()
      await expectStoreEqualsNode(next.number)
    })

    test('behavior: blocks that vanish while being fetched (the head went back) are left at once', async () => {
      t = await createTestStore(dialect)
      let gone = Number.POSITIVE_INFINITY
      let refused = 0
      // Blocks above `gone` fail as a node fails them while it switches to a shorter branch.
      const proxy = await createMethodFilterProxy({
        target: anvil.rpcUrl,
        refuse: ({ method, params }) => {
          const block = typeof params[0] === 'string' ? Number(params[0]) : Number.NaN
          // 'latest' (the head) still answers.
          if (method !== 'eth_getBlockByNumber' || !(block > gone)) return undefined
          refused++
          return { code: -32000, message: 'block not available' }
        },
      })
      const indexer = createChainIndexer({
        chain: testChainConfig({ chainId: 31337, rpc: [proxy.url], pollIntervalMs: 200 }),
        store: t.store,
        logger: testLogger(),
      })
      const run = runIndexer({ indexer, store: t.store })
      try {
        const base = await client.getBlock()
        await run.synced({ block: Number(base.number), hash: base.hash })
        const snapshot = await client.request({ method: 'evm_snapshot' as never })
        gone = Number(base.number)
        for (let i = 0; i < 3; i++)
          await send({ account: accounts[0]!, to: accounts[1]!.address, value: 1n, chain: null })
        // The indexer is now retrying those blocks with a growing back-off.
        for (const until = Date.now() + 10_000; refused < 4 && Date.now() < until; )
          await new Promise((r) => setTimeout(r, 50))
        expect(refused).toBeGreaterThanOrEqual(4)
        await client.request({ method: 'evm_revert' as never, params: [snapshot] as never })
        gone = Number.POSITIVE_INFINITY
        await send({ account: accounts[2]!, to: accounts[3]!.address, value: 2n, chain: null })
        const next = await client.getBlock()
        // The retries alone would wait out ~20 s of back-off for blocks that no longer exist.
        await run.synced({ block: Number(next.number), hash: next.hash, timeoutMs: 5_000 })
      } finally {
        await run.stop()
        await proxy.close()
      }
    })

    /**
     * Mines `empty` empty blocks, then `dense` blocks of 10 transactions, indexes them with
     * `batchSize` 20 and `batchTransactions` 25, checks the store against the node and returns
     * each committed batch as [blocks, transactions].
     */
    async function indexDenseBlocks({ empty, dense }: { empty: number; dense: number }) {
      t = await createTestStore(dialect)
      const start = Number(await client.getBlockNumber()) + 1
      if (empty > 0) await client.mine({ blocks: empty })
      await client.setAutomine(false)
      try {
        for (let b = 0; b < dense; b++) {
          await Promise.all(
            [0, 1, 2, 3, 4].map(async (i) => {
              for (let k = 0; k < 2; k++) {
                await client.wallet.sendTransaction({
                  account: accounts[i]!,
                  to: accounts[(i + 1) % 5]!.address,
                  value: BigInt(b * 10 + i * 2 + k + 1),
                  chain: null,
                })
              }
            }),
          )
          await client.mine({ blocks: 1 })
        }
      } finally {
        await client.setAutomine(true)
      }
      const head = await client.getBlock()
      const batches: { from: number; to: number; transactions: number }[] = []
      const store: typeof t.store = {
        ...t.store,
        applyBatch: (write, fence) => {
          const { fromBlock: from, toBlock: to, transactions } = write
          batches.push({ from, to, transactions: transactions.length })
          return t.store.applyBatch(write, fence)
        },
      }
      const indexer = createChainIndexer({
        chain: testChainConfig({
          chainId: 31337,
          rpc: [anvil.rpcUrl],
          startBlock: start,
          batchSize: 20,
          batchTransactions: 25,
        }),
        store,
        logger: testLogger(),
      })
      const run = runIndexer({ indexer, store: t.store })
      await run.synced({ block: Number(head.number), hash: head.hash })
      await run.stop()
      // Batches follow each other from the start block to the head.
      expect(batches.map((b) => b.from)).toEqual([
        start,
        ...batches.slice(0, -1).map((b) => b.to + 1),
      ])
      expect(batches.at(-1)?.to).toBe(Number(head.number))
      await expectStoreEqualsNode(head.number)
      return batches.map((b) => [b.to - b.from + 1, b.transactions])
    }

    test('behavior: dense blocks make batches of fewer blocks (batchTransactions)', async () => {
      // The first window guesses 10 blocks, 100 transactions: more than twice 25, so it is cut
      // (splitWindow). The next windows are sized from it: two blocks, 20 transactions.
      const batches = await indexDenseBlocks({ empty: 0, dense: 25 })
      expect(batches).toEqual([...Array.from({ length: 12 }, () => [2, 20]), [1, 10]])
    })

    test('behavior: dense blocks after empty ones are cut into batches (splitWindow)', async () => {
      // The first window (10 empty blocks) makes the next one batchSize blocks: 2 empty and 12
      // dense, 120 transactions, cut into batches of at most 25.
      const batches = await indexDenseBlocks({ empty: 12, dense: 12 })
      expect(batches).toEqual([[10, 0], [4, 20], ...Array.from({ length: 5 }, () => [2, 20])])
    })

    test('behavior: a reorg that lands in batches prepared and fetched but not committed', async () => {
      t = await createTestStore(dialect)
      const start = Number(await client.getBlockNumber()) + 1
      const token = await deployToken()
      await tokenCall(token, 0, 'mint', [accounts[1]!.address, 500n])
      await activity(token)
      const head = await client.getBlock()
      // Eleven blocks, batches of two: with commits held at a gate, the pipeline prepares
      // three batches (one commit waiting, two queued) and fetches the next three windows.
      expect(Number(head.number) - start + 1).toBe(11)
      let open = () => {}
      const gate = new Promise<void>((resolve) => {
        open = resolve
      })
      let waiting = 0
      const store: typeof t.store = {
        ...t.store,
        applyBatch: async (write, fence) => {
          waiting++
          await gate
          return t.store.applyBatch(write, fence)
        },
      }
      const fetched = new Set<number>()
      let lastCall = Date.now()
      const proxy = await createMethodFilterProxy({
        target: anvil.rpcUrl,
        refuse: ({ method, params }) => {
          lastCall = Date.now()
          if (method === 'eth_getBlockByNumber' && typeof params[0] === 'string')
            if (params[0].startsWith('0x')) fetched.add(Number(params[0]))
          return undefined
        },
      })
      const indexer = createChainIndexer({
        chain: testChainConfig({
          chainId: 31337,
          rpc: [proxy.url],
          startBlock: start,
          batchSize: 2,
        }),
        store,
        logger: testLogger(),
      })
      const run = runIndexer({ indexer, store: t.store })
      try {
        // Full: every block fetched, one commit waiting, and the node left alone a while.
        for (const until = Date.now() + 15_000; Date.now() < until; ) {
          if (waiting === 1 && fetched.has(Number(head.number)) && Date.now() - lastCall > 300)
            break
          await new Promise((r) => setTimeout(r, 20))
        }
        expect([waiting, fetched.has(Number(head.number))]).toEqual([1, true])
        expect(await t.store.getCheckpoint(31337)).toBeUndefined()
        // The last six blocks (in the third prepared batch and the fetched windows) change.
        await client.request({
          method: 'anvil_reorg' as never,
          params: [
            6,
            [
              [
                {
                  from: accounts[4]!.address,
                  to: accounts[0]!.address,
                  value: '0xde0b6b3a7640000',
                },
                2,
              ],
            ],
          ] as never,
        })
        const after = await client.getBlock()
        expect(after.hash).not.toBe(head.hash)
        open()
        await run.synced({ block: Number(after.number), hash: after.hash })
        const { checked } = await expectStoreEqualsNode(after.number)
        expect(checked.tokenBalances).toBeGreaterThan(0)
        // The new branch's blocks are what the store holds.
        const stored = await t.store.db
          .selectFrom('blocks')
          .select(['number', 'hash'])
          .where('chain_id', '=', 31337)
          .where('number', '>=', start + 4)
          .orderBy('number')
          .execute()
        const node = await Promise.all(
          stored.map(async (b) => (await client.getBlock({ blockNumber: BigInt(b.number) })).hash),
        )
        expect(stored.map((b) => b.hash)).toEqual(node.map((h) => h.toLowerCase()))
      } finally {
        open()
        await run.stop()
        await proxy.close()
      }
    })

    test("behavior: a batch is not written when the node leaves its branch after the batch's reads", async () => {
      t = await createTestStore(dialect)
      const start = Number(await client.getBlockNumber()) + 1
      const token = await deployToken()
      await activity(token)
      const head = await client.getBlock()
      const written: string[] = []
      const store: typeof t.store = {
        ...t.store,
        applyBatch: async (write, fence) => {
          for (const block of write.blocks) written.push(block.hash)
          return t.store.applyBatch(write, fence)
        },
      }
      // The node moves to another branch (its last two blocks replaced) after the batch read
      // its state, just before the batch's last block is looked up again.
      const node = createRpcClient({ urls: [anvil.rpcUrl] })
      let read = false
      let reorging = false
      let reorged = false
      const rpc: RpcClient = {
        request: async (call, options) => {
          if (call.method === 'eth_call') read = true
          const check =
            call.method === 'eth_getBlockByNumber' &&
            call.params?.[0] === toHex(head.number) &&
            call.params?.[1] === false
          if (read && check && !reorging) {
            reorging = true
            await client.request({ method: 'anvil_reorg' as never, params: [2, []] as never })
            reorged = true
          }
          return node.request(call, options)
        },
        batch: (calls, options) => {
          if (calls.some((c) => c.method === 'eth_call')) read = true
          return node.batch(calls, options)
        },
        close: () => node.close(),
      }
      const indexer = createChainIndexer({
        chain: testChainConfig({
          chainId: 31337,
          rpc: [anvil.rpcUrl],
          startBlock: start,
          batchSize: 50,
        }),
        store,
        logger: testLogger(),
        rpc,
      })
      const run = runIndexer({ indexer, store: t.store })
      try {
        for (const until = Date.now() + 15_000; Date.now() < until && !reorged; )
          await new Promise((r) => setTimeout(r, 20))
        expect(reorged).toBe(true)
        const after = await client.getBlock()
        expect(after.number).toBe(head.number)
        expect(after.hash).not.toBe(head.hash)
        await run.synced({ block: Number(after.number), hash: after.hash })
        await expectStoreEqualsNode(after.number)
        // Nothing of the left branch was ever written, not even for a while.
        expect(written).toContain(after.hash.toLowerCase())
        expect(written).not.toContain(head.hash.toLowerCase())
      } finally {
        await run.stop()
        node.close()
      }
    })

    test('behavior: starting after a token was minted does not mistake it for a rebasing token', async () => {
      t = await createTestStore(dialect)
      const token = await deployToken()
      await tokenCall(token, 0, 'mint', [accounts[1]!.address, 1000n])
      const start = Number(await client.getBlockNumber()) + 1
      const indexer = createChainIndexer({
        chain: testChainConfig({ chainId: 31337, rpc: [anvil.rpcUrl], startBlock: start }),
        store: t.store,
        logger: testLogger(),
      })
      const run = runIndexer({ indexer, store: t.store })
      await tokenCall(token, 1, 'transfer', [accounts[2]!.address, 100n])
      const head = await client.getBlock()
      await run.synced({ block: Number(head.number), hash: head.hash })
      await run.stop()
      const row = await t.store.db
        .selectFrom('tokens')
        .selectAll()
        .where('address', '=', token.toLowerCase())
        .executeTakeFirstOrThrow()
      expect(row.rebasing).toBe(0)
      const holders = await t.store.db
        .selectFrom('token_balances')
        .select(['address', 'balance'])
        .where('token', '=', token.toLowerCase())
        .orderBy('address')
        .execute()
      expect(holders.map((h) => [h.address, fromU256(h.balance)])).toEqual(
        [
          [accounts[1]!.address.toLowerCase(), 900n],
          [accounts[2]!.address.toLowerCase(), 100n],
        ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      )
    })
  })
}
