import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  numberToHex,
  parseAbi,
} from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { ChainConfig } from '../../src/config/types.ts'
import { buildWorld, type World } from '../../src/dev/buildWorld.ts'
import { createPrng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { fromU256 } from '../../src/store/u256.ts'
import { createDeliveryWorker } from '../../src/webhooks/createDeliveryWorker.ts'
import { compareWithNode } from '../support/compareWithNode.ts'
import { createCountingProxy, type ProxiedCall } from '../support/createCountingProxy.ts'
import { createTestApi, type TestApi } from '../support/createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from '../support/createTestStore.ts'
import {
  createWebhookReceiver,
  type ReceivedWebhook,
  subscribe,
} from '../support/createWebhookReceiver.ts'
import { storesAtHead } from '../support/storesAtHead.ts'
import { runIndexer, testChainConfig } from '../support/testChain.ts'

// The reorg soak of issue 14: a world on anvil, followed at the head by one indexer per store,
// then rounds of random transfers, an anvil_reorg of random depth (1-20) with other
// transactions on the new branch, and sometimes more blocks past the old head. After every
// round both stores must equal the node (every balance, NFT owner and holder list; the
// activity and transactions of the wallets involved; the indexed block's hash), and at the
// end receivers that apply webhook additions and removals must hold exactly the new branch.
// SCRY_SOAK_SEED repeats a run; SCRY_SOAK_ROUNDS changes its length (default 30).
const CHAIN_ID = 1
const SEED = Number(process.env.SCRY_SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31))
const ROUNDS = Number(process.env.SCRY_SOAK_ROUNDS ?? 30)
const prng = createPrng(SEED)
const mintAbi = parseAbi(['function mint(address to) returns (uint256)'])

type Side = {
  dialect: string
  /** Every eth_getBalance the side's indexer made, with the node's answer (diagnostics). */
  balanceReads: ProxiedCall[]
  proxy: Awaited<ReturnType<typeof createCountingProxy>>
  store: TestStore
  api: TestApi
  run: ReturnType<typeof runIndexer>
  receiver: Awaited<ReturnType<typeof createWebhookReceiver>>
  worker: AbortController
  working: Promise<void>
}

let anvil: Anvil
let world: World
let node: ReturnType<typeof createPublicClient>
let chain: ChainConfig
let watched: Address[]
let token: Address
let nft: Address
const sides: Side[] = []
/**
 * Every transaction this test sent (either branch): sender, recipient (of the ETH, tokens or
 * NFT) and whether that recipient is the transaction's own `to`.
 */
const sent = new Map<Hex, { from: Address; to: Address; direct: boolean; round: number }>()

const rpc = <T>(method: string, params: unknown[] = []) =>
  node.request({ method, params } as never) as Promise<T>

beforeAll(async () => {
  console.log(`reorg soak: seed ${SEED}, ${ROUNDS} rounds (SCRY_SOAK_SEED=${SEED} repeats it)`)
  anvil = await startAnvil({ chainId: CHAIN_ID })
  world = await buildWorld({ rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID, transfers: 300 })
  node = createPublicClient({
    transport: http(anvil.rpcUrl, { batch: { batchSize: 200 } }),
    pollingInterval: 20,
    cacheTime: 0,
  })
  watched = prng.sample(world.wallets, 12)
  token = world.tokens.find((t) => t.kind === 'erc20')!.address
  nft = world.nfts.find((n) => n.standard === 'erc721')!.address
  chain = testChainConfig({
    chainId: CHAIN_ID,
    rpc: [anvil.rpcUrl],
    traces: 'parity',
    batchSize: 20,
    finalityDepth: 32,
  })
  for (const dialect of DIALECTS) {
    const store = await createTestStore(dialect)
    const api = await createTestApi({
      store: store.store,
      chains: [chain],
      overrides: { webhookUrls: { allowHttp: true, allowPrivate: true } },
    })
    const receiver = await createWebhookReceiver()
    for (const type of ['transactions', 'balances']) {
      await subscribe({
        api,
        body: { webhook_url: receiver.url, type, chain_ids: [CHAIN_ID], addresses: watched },
      })
    }
    const balanceReads: ProxiedCall[] = []
    const proxy = await createCountingProxy({
      target: anvil.rpcUrl,
      record: { methods: ['eth_getBalance'], onCall: (call) => balanceReads.push(call) },
    })
    const worker = new AbortController()
    const working = createDeliveryWorker({
      store: store.store,
      meter: api.ctx.meter,
      logger: silentLogger(),
      allowHttp: true,
      allowPrivate: true,
      pollIntervalMs: 20,
    }).run(worker.signal)
    const run = runIndexer({
      indexer: createChainIndexer({
        chain: { ...chain, rpc: [proxy.url] },
        store: store.store,
        logger: silentLogger(),
      }),
      store: store.store,
    })
    sides.push({ dialect, balanceReads, proxy, store, api, run, receiver, worker, working })
  }
}, 300_000)

afterAll(async () => {
  for (const side of sides) {
    side.worker.abort()
    await side.working
    await side.run.stop()
    await side.receiver.close()
    await side.proxy.close()
    await side.api.close()
    await side.store.drop()
  }
  await anvil?.stop()
})

/** A random transfer among the watched wallets: ETH, the demo token, or an NFT mint. */
function randomTx(): { from: Address; to: Address; value?: Hex; data?: Hex } {
  const from = prng.pick(watched)
  const to = prng.pick(watched.filter((w) => w !== from))
  const kind = prng.int(3)
  if (kind === 0) return { from, to, value: numberToHex(BigInt(prng.between(1, 999)) * 10n ** 15n) }
  if (kind === 1) {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, 7n] })
    return { from, to: token, data }
  }
  const data = encodeFunctionData({ abi: mintAbi, functionName: 'mint', args: [to] })
  return { from, to: nft, data }
}

/** Recipient of a transfer as a wallet sees it (the token or NFT contract is only `to`). */
const beneficiary = (tx: { to: Address; data?: Hex | undefined }): Address =>
  tx.data === undefined || tx.data === '0x' ? tx.to : (`0x${tx.data.slice(34, 74)}` as Address)

async function send(round: number): Promise<void> {
  const tx = randomTx()
  const hash = await rpc<Hex>('eth_sendTransaction', [tx])
  await node.waitForTransactionReceipt({ hash })
  sent.set(hash, { from: tx.from, to: beneficiary(tx), direct: tx.data === undefined, round })
}

/** Until every store's checkpoint is the node's head, by hash. */
const synced = () =>
  storesAtHead({
    node,
    stores: sides.map((s) => s.store.store),
    chainId: CHAIN_ID,
    label: `seed ${SEED}`,
  })

/** Where the node has a transaction now: its block, or undefined when no branch of it does. */
async function onChain(
  hash: Hex,
): Promise<{ block: number; blockHash: Hex; success: boolean } | undefined> {
  const receipt = await rpc<{ blockNumber: Hex; blockHash: Hex; status: Hex } | null>(
    'eth_getTransactionReceipt',
    [hash],
  )
  if (!receipt) return undefined
  const { blockNumber, blockHash, status } = receipt
  return { block: Number(blockNumber), blockHash, success: status === '0x1' }
}

type Where = Awaited<ReturnType<typeof onChain>>

/** Where the node has each transaction this test sent, read once per round (one batch). */
async function locateSent(): Promise<Map<Hex, Where>> {
  const hashes = [...sent.keys()]
  const found = await Promise.all(hashes.map(onChain))
  return new Map(hashes.map((h, i) => [h, found[i]]))
}

async function checkSide(
  side: Side,
  head: { number: bigint; hash: Hex },
  round: number,
  located: Map<Hex, Where>,
) {
  const where = `seed ${SEED} round ${round} (${side.dialect})`
  const status = await side.api.get('/v1/status')
  expect(status.body.chains[0], where).toMatchObject({
    indexed_block: Number(head.number),
    indexed_block_hash: head.hash,
  })
  const { mismatches } = await compareWithNode({
    store: side.store.store,
    rpcUrl: anvil.rpcUrl,
    chainId: CHAIN_ID,
    block: head.number,
    wallets: world.wallets,
  })
  expect(mismatches, `${where}${await explainBalances(side, mismatches)}`).toEqual([])

  // The holder list the API serves for the demo token, against the node.
  const holders = await side.api.get(`/v1/evm/token-holders/${CHAIN_ID}/${token}?limit=500`)
  const onNode = await Promise.all(
    holders.body.holders.map((h: { wallet_address: Address }) =>
      node.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [h.wallet_address],
        blockNumber: head.number,
      }),
    ),
  )
  expect(
    holders.body.holders.map((h: { balance: string }) => BigInt(h.balance)),
    where,
  ).toEqual(onNode)
  const stored = await side.store.store.db
    .selectFrom('token_balances')
    .select(['address', 'balance'])
    .where('chain_id', '=', CHAIN_ID)
    .where('token', '=', token)
    .execute()
  expect(holders.body.holders.length, where).toBe(
    stored.filter((r) => fromU256(r.balance) > 0n).length,
  )

  // Transactions and activity of every wallet this round involved: nothing off the node's
  // branch, and every transaction of the round that the node has.
  const involved = new Set<Address>()
  for (const s of sent.values()) {
    if (s.round !== round) continue
    involved.add(s.from)
    involved.add(s.to)
  }
  const checkWallet = async (wallet: Address) => {
    const txs = await side.api.get(`/v1/evm/transactions/${wallet}?chain_ids=${CHAIN_ID}&limit=100`)
    expect(txs.status, where).toBe(200)
    const listed = new Set<string>()
    for (const tx of txs.body.transactions) {
      listed.add(tx.hash)
      if (!sent.has(tx.hash)) continue
      const at = located.get(tx.hash)
      expect({ hash: tx.hash, block_hash: tx.block_hash }, `${where}: ${wallet}`).toEqual({
        hash: tx.hash,
        block_hash: at?.blockHash,
      })
    }
    for (const [hash, s] of sent) {
      if (s.round !== round || (s.from !== wallet && s.to !== wallet)) continue
      const at = located.get(hash)
      // A token transfer that failed moved nothing: its recipient is in no log.
      const shown = at !== undefined && (s.from === wallet || s.direct || at.success)
      expect(listed.has(hash), `${where}: ${wallet} misses ${hash}`).toBe(shown)
    }
    const activity = await side.api.get(
      `/v1/evm/activity/${wallet}?chain_ids=${CHAIN_ID}&limit=100`,
    )
    for (const item of activity.body.activity) {
      if (!sent.has(item.tx_hash)) continue
      const at = located.get(item.tx_hash)
      expect(at?.block, `${where}: activity ${item.tx_hash}`).toBe(item.block_number)
    }
  }
  await Promise.all([...involved].map(checkWallet))
}

test('behavior: random reorgs of depth 1-20 leave every store and its webhook receiver equal to the node', async () => {
  await synced()
  const depths: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const count = prng.between(3, 22)
    for (let i = 0; i < count; i++) await send(round)
    await synced()

    // A new branch of the same height with 1-4 other transfers spread over its blocks,
    // then: nothing more (same height), one block (a live chain goes on), or a longer branch.
    const depth = prng.between(1, 20)
    depths.push(depth)
    const replacements = Array.from({ length: prng.between(1, 4) }, () => [
      randomTx(),
      prng.int(depth),
    ])
    await rpc('anvil_reorg', [depth, replacements])
    // Remember the replacements too: the new branch's transactions this test has not seen.
    const top = await node.getBlockNumber()
    for (let n = top - BigInt(depth) + 1n; n <= top; n++) {
      const block = await node.getBlock({ blockNumber: n, includeTransactions: true })
      for (const tx of block.transactions) {
        if (sent.has(tx.hash)) continue
        const from = tx.from.toLowerCase() as Address
        const to = (tx.to ?? '0x').toLowerCase() as Address
        const direct = tx.input === '0x'
        sent.set(tx.hash, { from, to: beneficiary({ to, data: tx.input }), direct, round })
      }
    }
    const extra = prng.pick([0, 1, 1, prng.between(2, 6)])
    for (let i = 0; i < extra; i++) await send(round)
    const now = await synced()
    const located = await locateSent()
    await Promise.all(sides.map((side) => checkSide(side, now, round, located)))
  }
  console.log(`reorg soak: seed ${SEED}, depths ${depths.join(',')}`)

  // Webhooks: once the outboxes are drained, what each receiver holds is the node's.
  const head = await synced()
  for (const side of sides) await drained(side)
  for (const side of sides) await checkReceiver(side, head.number)
}, 600_000)

/**
 * For a wrong native or token balance: the stored row, the undo entries of its key and the
 * address's transactions this test knows of, so that a failure shows which batch wrote what.
 */
async function explainBalances(side: Side, mismatches: string[]): Promise<string> {
  const lines: string[] = []
  const db = side.store.store.db
  for (const m of mismatches) {
    const native = /^native (0x[0-9a-f]{40})/.exec(m)?.[1]
    const holder = /^token \S+ holder (0x[0-9a-f]{40})/.exec(m)?.[1]
    const address = native ?? holder
    if (!address) continue
    const table = native ? 'native_balances' : 'token_balances'
    const rows = await (db as any)
      .selectFrom(table)
      .selectAll()
      .where('address', '=', address)
      .execute()
    const undo = await db
      .selectFrom('undo_log')
      .select(['from_block', 'to_block', 'prev'])
      .where('table_name', '=', table)
      .where('row_key', 'like', `%${address}%`)
      .execute()
    const located = await locateSent()
    const txs = [...sent]
      .filter(([, s]) => s.from === address || s.to === address)
      .map(([hash, s]) => `${hash.slice(0, 10)} r${s.round} ${located.get(hash)?.block ?? 'gone'}`)
    lines.push(
      `${address}: ${table} ${JSON.stringify(rows)}; undo ${JSON.stringify(undo)}; txs ${txs.join(', ')}`,
    )
    if (native) {
      lines.push(await nodeBalanceHistory(address as Address, rows))
      lines.push(await indexerReads(side, address as Address))
    }
  }
  return lines.length > 0 ? `\n${lines.join('\n')}` : ''
}

/**
 * The node's view of a wrong native balance: its balance by number and by hash at the stored
 * row's block, then every block up to the head where it changes, with what touched it there.
 */
async function nodeBalanceHistory(address: Address, rows: { block_number?: unknown }[]) {
  const from = BigInt(Math.min(...rows.map((r) => Number(r.block_number ?? 0))))
  const head = await node.getBlockNumber()
  const out: string[] = []
  const at = await node.getBlock({ blockNumber: from })
  const byHash = await rpc<Hex>('eth_getBalance', [address, { blockHash: at.hash }])
  out.push(
    `node at ${from}: ${await node.getBalance({ address, blockNumber: from })}, by hash ${BigInt(byHash)}`,
  )
  let prev = await node.getBalance({ address, blockNumber: from })
  for (let n = from + 1n; n <= head; n++) {
    const balance = await node.getBalance({ address, blockNumber: n })
    if (balance === prev) continue
    const block = await node.getBlock({ blockNumber: n, includeTransactions: true })
    const touching = block.transactions
      .filter((tx) => tx.from.toLowerCase() === address || tx.to?.toLowerCase() === address)
      .map((tx) => tx.hash.slice(0, 10))
    out.push(
      `block ${n}: ${prev} -> ${balance} (${balance - prev}), miner ${block.miner}, txs touching ${touching.join(' ') || 'none'} of ${block.transactions.length}`,
    )
    prev = balance
  }
  return out.join('\n')
}

/** The indexer's last balance reads of an address: block asked, answer then, answer now. */
async function indexerReads(side: Side, address: Address): Promise<string> {
  const reads = side.balanceReads.filter((c) => String(c.params[0]).toLowerCase() === address)
  const out: string[] = []
  for (const c of reads.slice(-8)) {
    const block = c.params[1]
    const now = await rpc<Hex>('eth_getBalance', [address, block]).then(
      (v) => String(BigInt(v)),
      (e: Error) => `error ${e.message.split('\n')[0]}`,
    )
    const then = typeof c.result === 'string' ? String(BigInt(c.result)) : JSON.stringify(c.result)
    const hash = (block as { blockHash?: Hex } | undefined)?.blockHash
    let where = ''
    if (hash) {
      const b = await rpc<{ number: Hex } | null>('eth_getBlockByHash', [hash, false])
      const canonical = b && (await node.getBlock({ blockNumber: BigInt(b.number) })).hash === hash
      where = b
        ? ` block ${Number(b.number)}${canonical ? '' : ' (not canonical)'}`
        : ' (hash unknown)'
    }
    out.push(
      `read at ${JSON.stringify(block)}${where} (${new Date(c.at).toISOString()}): then ${then}, now ${now}`,
    )
  }
  return out.join('\n')
}

async function drained(side: Side): Promise<void> {
  const until = Date.now() + 60_000
  for (;;) {
    const pending = await side.store.store.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow()
    if (Number(pending.n) === 0) return
    if (Date.now() > until) throw new Error(`seed ${SEED}: ${side.dialect} outbox not drained`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

const bodyItems = (r: ReceivedWebhook) => Object.values(r.body as Record<string, any[]>)[0] ?? []

/** Applies additions and removals: what is left (each item at most once) is what it holds. */
function held(side: Side, type: string): any[] {
  const net = new Map<string, number>()
  for (const r of side.receiver.received) {
    if (r.headers['scry-webhook-type'] !== type) continue
    for (const { removed, ...item } of bodyItems(r)) {
      const key = JSON.stringify(item)
      net.set(key, (net.get(key) ?? 0) + (removed ? -1 : 1))
    }
  }
  for (const [key, n] of net) expect([0, 1], `seed ${SEED}: ${key}`).toContain(n)
  return [...net].filter(([, n]) => n === 1).map(([key]) => JSON.parse(key))
}

async function checkReceiver(side: Side, block: bigint) {
  const where = `seed ${SEED} (${side.dialect} webhooks)`
  const watchedSet = new Set<string>(watched)
  // Transactions: exactly the node's transactions of the watched wallets, sent by this test.
  const got = held(side, 'transactions')
    .filter((item) => sent.has(item.hash))
    .map((item) => `${item.address}|${item.hash}|${item.block_hash}`)
    .sort()
  const expected: string[] = []
  for (const hash of sent.keys()) {
    const at = await onChain(hash)
    if (!at) continue
    const tx = await rpc<{ from: Address; to: Address | null }>('eth_getTransactionByHash', [hash])
    for (const address of new Set([tx.from.toLowerCase(), tx.to?.toLowerCase()])) {
      if (address && watchedSet.has(address)) expected.push(`${address}|${hash}|${at.blockHash}`)
    }
  }
  expect(got, where).toEqual(expected.sort())

  // Balances: the latest change held per wallet and asset is the node's balance now.
  const latest = new Map<string, any>()
  for (const item of held(side, 'balances')) {
    const key = `${item.subscribed_address}|${item.asset.token_address}`
    const prev = latest.get(key)
    if (!prev || prev.block_number < item.block_number) latest.set(key, item)
  }
  expect(latest.size, where).toBeGreaterThan(0)
  for (const [key, item] of latest) {
    const [address, asset] = key.split('|') as [Address, string]
    const balance =
      asset === 'native'
        ? await node.getBalance({ address, blockNumber: block })
        : await node.readContract({
            address: asset as Address,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [address],
            blockNumber: block,
          })
    expect(BigInt(item.amount_after), `${where}: ${key}`).toBe(balance)
  }
}
