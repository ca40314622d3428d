import {
  type Address,
  createTestClient,
  createWalletClient,
  erc20Abi,
  http,
  parseEther,
  publicActions,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApi } from '../../test/support/createTestApi.ts'
import { createTestStore, DIALECTS } from '../../test/support/createTestStore.ts'
import {
  createWebhookReceiver,
  type ReceivedWebhook,
  subscribe,
} from '../../test/support/createWebhookReceiver.ts'
import { runIndexer, testChainConfig } from '../../test/support/testChain.ts'
import { CHAIN_CATALOGUE } from '../chains/catalogue.ts'
import { type CompiledContracts, compileContracts } from '../dev/compileContracts.ts'
import { type Anvil, startAnvil } from '../dev/startAnvil.ts'
import { createChainIndexer } from '../indexer/createChainIndexer.ts'
import { silentLogger } from '../internal/logger.ts'
import { createDeliveryWorker } from './createDeliveryWorker.ts'
import { verifyWebhookSignature } from './signWebhook.ts'

// End to end on anvil: transfers, approvals and native sends become signed webhook deliveries
// of all three types whose payloads match the API's items and the node's balances; a reorg
// through anvil_reorg sends the removed events again with "removed": true.
const CHAIN_ID = 1
const MNEMONIC = 'test test test test test test test test test test test junk'
const accounts = [0, 1, 2, 3].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }))
const [a0, a1, a2, a3] = accounts as [
  (typeof accounts)[0],
  (typeof accounts)[0],
  (typeof accounts)[0],
  (typeof accounts)[0],
]
const wallet = a1.address.toLowerCase()

let anvil: Anvil
let contracts: CompiledContracts
let client: ReturnType<typeof makeClient>

function makeClient(url: string) {
  return createTestClient({ mode: 'anvil', transport: http(url), cacheTime: 0 })
    .extend(publicActions)
    .extend((c) => ({ wallet: createWalletClient({ transport: http(url), chain: c.chain }) }))
}

beforeAll(async () => {
  ;[anvil, contracts] = await Promise.all([startAnvil({ chainId: CHAIN_ID }), compileContracts()])
  client = makeClient(anvil.rpcUrl)
}, 120_000)
afterAll(async () => {
  await anvil?.stop()
})

async function token(functionName: string, from: typeof a0, address: Address, args: unknown[]) {
  const hash = await client.wallet.writeContract({
    address,
    abi: contracts.DemoERC20.abi,
    functionName,
    args,
    account: from,
    chain: null,
  })
  return client.waitForTransactionReceipt({ hash })
}

const itemsOf = (received: ReceivedWebhook[], type: string) =>
  received
    .filter((r) => r.headers['scry-webhook-type'] === type)
    .flatMap((r) => Object.values(r.body as Record<string, any[]>)[0] ?? [])

const sortJson = (items: unknown[]) => items.map((i) => JSON.stringify(i)).sort()

for (const dialect of DIALECTS) {
  describe(`webhooks end to end (${dialect})`, () => {
    test('default: balances, activities and transactions arrive signed, equal to the API and the node; a reorg sends removals', async () => {
      const t = await createTestStore(dialect)
      // The operator's catalogue renames the chain: webhook items name it as the API does.
      const chain = testChainConfig({
        chainId: CHAIN_ID,
        name: 'eth_archive',
        rpc: [anvil.rpcUrl],
        startBlock: Number(await client.getBlockNumber()) + 1,
      })
      const api = await createTestApi({
        store: t.store,
        chains: [chain],
        overrides: {
          webhookUrls: { allowHttp: true, allowPrivate: true },
          catalogue: CHAIN_CATALOGUE.map((c) =>
            c.chainId === CHAIN_ID ? { ...c, name: 'eth_archive' } : c,
          ),
        },
      })
      const receiver = await createWebhookReceiver()
      const controller = new AbortController()
      const run = runIndexer({
        indexer: createChainIndexer({ chain, store: t.store, logger: silentLogger() }),
        store: t.store,
      })
      const working = createDeliveryWorker({
        store: t.store,
        meter: api.ctx.meter,
        logger: silentLogger(),
        allowHttp: true,
        allowPrivate: true,
        pollIntervalMs: 20,
      }).run(controller.signal)
      try {
        const secrets = new Map<string, string>()
        for (const type of ['balances', 'activities', 'transactions']) {
          const body = await subscribe({
            api,
            body: {
              webhook_url: receiver.url,
              type,
              chain_ids: [CHAIN_ID],
              addresses: [a1.address],
            },
          })
          secrets.set(body.id, body.secret)
        }

        // Native sends both ways, a token deployed, minted to, sent by and approved by a1.
        await client.waitForTransactionReceipt({
          hash: await client.wallet.sendTransaction({
            account: a0,
            to: a1.address,
            value: parseEther('2'),
            chain: null,
          }),
        })
        await client.waitForTransactionReceipt({
          hash: await client.wallet.sendTransaction({
            account: a1,
            to: a2.address,
            value: parseEther('0.5'),
            chain: null,
          }),
        })
        const deployed = await client.waitForTransactionReceipt({
          hash: await client.wallet.deployContract({
            abi: contracts.DemoERC20.abi,
            bytecode: contracts.DemoERC20.bytecode,
            args: ['Demo', 'DEMO', 18],
            account: a0,
            chain: null,
          }),
        })
        const demo = deployed.contractAddress as Address
        await token('mint', a0, demo, [a1.address, 1000n])
        await token('transfer', a1, demo, [a2.address, 300n])
        const approved = await token('approve', a1, demo, [a3.address, 200n])
        const head = await client.getBlock()
        await run.synced({ block: Number(head.number), hash: head.hash })
        await receiver.until((r) =>
          r.some(
            (x) =>
              x.headers['scry-webhook-type'] === 'activities' &&
              x.body.activities.some((i: any) => i.type === 'approve'),
          ),
        )
        await new Promise((r) => setTimeout(r, 300))

        // Every delivery is signed with its subscription's secret.
        for (const r of receiver.received) {
          const secret = secrets.get(String(r.headers['scry-webhook-subscription-id']))
          expect(
            verifyWebhookSignature({
              secret: secret!,
              body: r.raw,
              header: String(r.headers['scry-webhook-signature']),
            }),
          ).toBe(true)
        }

        // Activities: exactly the API's items for the wallet.
        const activity = await api.get(`/v1/evm/activity/${wallet}?chain_ids=${CHAIN_ID}&limit=100`)
        expect(sortJson(itemsOf(receiver.received, 'activities'))).toEqual(
          sortJson(activity.body.activity),
        )
        expect(new Set(activity.body.activity.map((i: any) => i.type))).toEqual(
          new Set(['receive', 'send', 'mint', 'approve']),
        )

        // Transactions: the API's items where the wallet is the sender or the receiver.
        const txs = await api.get(`/v1/evm/transactions/${wallet}?chain_ids=${CHAIN_ID}&limit=100`)
        expect(sortJson(itemsOf(receiver.received, 'transactions'))).toEqual(
          sortJson(txs.body.transactions.filter((i: any) => i.from === wallet || i.to === wallet)),
        )
        expect(itemsOf(receiver.received, 'transactions').length).toBe(4)

        // Balances: before and after equal the node at the block before and at the block.
        const changes = itemsOf(receiver.received, 'balances')
        expect(changes.length).toBeGreaterThanOrEqual(6)
        for (const c of changes) {
          const at = async (block: number) =>
            c.asset.token_address === 'native'
              ? client.getBalance({ address: a1.address, blockNumber: BigInt(block) })
              : client.readContract({
                  address: c.asset.token_address,
                  abi: erc20Abi,
                  functionName: 'balanceOf',
                  args: [a1.address],
                  blockNumber: BigInt(block),
                })
          expect(c.subscribed_address).toBe(wallet)
          expect(BigInt(c.amount_after)).toBe(await at(c.block_number))
          expect(BigInt(c.amount_before)).toBe(await at(c.block_number - 1))
          expect(BigInt(c.amount_delta)).toBe(BigInt(c.amount_after) - BigInt(c.amount_before))
          expect(c.direction).toBe(BigInt(c.amount_delta) > 0n ? 'in' : 'out')
        }
        const tokenChanges = changes.filter((c) => c.asset.token_address !== 'native')
        expect(tokenChanges.map((c) => [c.amount_delta, c.direction, c.asset])).toEqual([
          [
            '1000',
            'in',
            { token_address: demo.toLowerCase(), symbol: 'DEMO', name: 'Demo', decimals: 18 },
          ],
          [
            '-300',
            'out',
            { token_address: demo.toLowerCase(), symbol: 'DEMO', name: 'Demo', decimals: 18 },
          ],
        ])
        expect(tokenChanges[1]).toMatchObject({
          counterparty_address: a2.address.toLowerCase(),
        })

        // A reorg replacing the approval's block: its delivered events come back as removed.
        const approvalBlock = Number(approved.blockNumber)
        const before = receiver.received.filter(
          (r) =>
            r.body &&
            Object.values(r.body as Record<string, any[]>)[0]?.[0]?.block_number === approvalBlock,
        )
        expect(before.length).toBeGreaterThan(0)
        await client.request({
          method: 'anvil_reorg' as never,
          params: [1, [[{ from: a0.address, to: a3.address, value: '0x1' }, 0]]] as never,
        })
        const after = await client.getBlock()
        await run.synced({ block: Number(after.number), hash: after.hash })
        await receiver.until(
          (r) =>
            r.filter((x) => (Object.values(x.body) as any[][])[0]?.[0]?.removed === true).length >=
            before.length,
        )
        await new Promise((r) => setTimeout(r, 300))
        const bodyItems = (r: ReceivedWebhook) => Object.values(r.body as Record<string, any[]>)[0]!
        const isRemoval = (r: ReceivedWebhook) => bodyItems(r)[0]?.removed === true
        const removals = receiver.received.filter(isRemoval)
        // Each removal repeats an earlier delivery of its subscription, every item marked.
        for (const removal of removals) {
          const stripped = bodyItems(removal).map(({ removed, ...item }) => {
            expect(removed).toBe(true)
            return item
          })
          const original = receiver.received.find(
            (r) =>
              !isRemoval(r) &&
              r.headers['scry-webhook-subscription-id'] ===
                removal.headers['scry-webhook-subscription-id'] &&
              JSON.stringify(bodyItems(r)) === JSON.stringify(stripped),
          )
          expect(original, JSON.stringify(stripped)).toBeDefined()
          expect(removal.headers['scry-webhook-id']).not.toBe(original!.headers['scry-webhook-id'])
        }
        // The reorged block's deliveries were all retracted.
        for (const b of before) {
          expect(
            removals.some(
              (r) =>
                r.headers['scry-webhook-subscription-id'] ===
                  b.headers['scry-webhook-subscription-id'] &&
                bodyItems(r)[0].block_number === approvalBlock,
            ),
          ).toBe(true)
        }
        // The delivery log says which deliveries a reorg took back.
        for (const b of before) {
          const subscription = b.headers['scry-webhook-subscription-id']
          const log = await api.get(`/v1/evm/subscriptions/${subscription}/deliveries`)
          const original = log.body.deliveries.find(
            (d: { id: string }) => d.id === b.headers['scry-webhook-id'],
          )
          expect(original).toMatchObject({ reverted: true, removed: false })
        }
        // What a receiver applying additions and removals holds equals the API after the reorg.
        const net = new Map<string, number>()
        for (const r of receiver.received.filter(
          (x) => x.headers['scry-webhook-type'] === 'activities',
        )) {
          for (const { removed, ...item } of bodyItems(r)) {
            const k = JSON.stringify(item)
            net.set(k, (net.get(k) ?? 0) + (removed ? -1 : 1))
          }
        }
        const held = [...net].flatMap(([k, n]) => Array<string>(n).fill(k)).sort()
        const now = await api.get(`/v1/evm/activity/${wallet}?chain_ids=${CHAIN_ID}&limit=100`)
        expect(held).toEqual(sortJson(now.body.activity))
        expect(now.body.activity.some((i: any) => i.type === 'approve')).toBe(false)
      } finally {
        controller.abort()
        await working
        await run.stop()
        await receiver.close()
        await api.close()
        await t.drop()
      }
    }, 120_000)
  })
}
