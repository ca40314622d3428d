import { createTestClient, createWalletClient, http, publicActions } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createStore } from '../../src/store/createStore.ts'
import { createSubscriptions } from '../../src/webhooks/createSubscriptions.ts'
import { createTestDatabase, DIALECTS } from '../support/createTestStore.ts'
import { createWebhookReceiver } from '../support/createWebhookReceiver.ts'
import { exited, spawnScryStart } from '../support/spawnScryStart.ts'

// Acceptance: SIGKILL `scry start` while it delivers webhooks, restart it: every delivery
// arrives, and a receiver deduplicating by scry-webhook-id sees each exactly once.
const CHAIN_ID = 1
const MNEMONIC = 'test test test test test test test test test test test junk'
const accounts = [0, 1, 2, 3].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }))

let anvil: Anvil
beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID })
})
afterAll(async () => {
  await anvil?.stop()
})

const startScry = (database: string) =>
  spawnScryStart({
    chainId: CHAIN_ID,
    rpcUrl: anvil.rpcUrl,
    database,
    batchSize: 2,
    extra: [
      '--webhooks-allow-http',
      'true',
      '--webhooks-allow-private-addresses',
      'true',
      '--webhooks-concurrency',
      '2',
    ],
  })

describe('webhook resilience', () => {
  for (const dialect of DIALECTS) {
    test(`behavior: SIGKILL mid-delivery, then restart, delivers every event exactly once per id (${dialect})`, async () => {
      const { url, drop } = await createTestDatabase(dialect)
      const store = createStore({ url })
      // Slow answers, so that kills land while deliveries are in flight.
      const receiver = await createWebhookReceiver({
        respond: () => ({ status: 200, delayMs: 120 }),
      })
      try {
        await store.migrate()
        const subs = createSubscriptions({
          store,
          policy: { allowHttp: true, allowPrivate: true },
          enabledChains: new Set([CHAIN_ID]),
        })
        for (const type of ['activities', 'transactions', 'balances'] as const) {
          await subs.create({
            accountId: 'acct',
            input: {
              webhook_url: receiver.url,
              type,
              chain_ids: [CHAIN_ID],
              addresses: accounts.map((a) => a.address),
            },
          })
        }
        const client = createTestClient({
          mode: 'anvil',
          transport: http(anvil.rpcUrl),
          cacheTime: 0,
        })
          .extend(publicActions)
          .extend((c) => ({
            wallet: createWalletClient({ transport: http(anvil.rpcUrl), chain: c.chain }),
          }))
        const start = Number(await client.getBlockNumber())
        for (let i = 0; i < 16; i++) {
          const hash = await client.wallet.sendTransaction({
            account: accounts[i % 4]!,
            to: accounts[(i + 1) % 4]!.address,
            value: 1000n + BigInt(i),
            chain: null,
          })
          await client.waitForTransactionReceipt({ hash })
        }
        const end = Number(await client.getBlockNumber())
        expect(end - start).toBe(16)

        let kills = 0
        for (let k = 0; k < 3; k++) {
          const seen = receiver.received.length
          const child = startScry(url)
          await receiver.until((r) => r.length >= seen + 3 + k, 60_000)
          child.kill('SIGKILL')
          await exited(child)
          kills++
        }
        const child = startScry(url)
        let stderr = ''
        child.stderr?.on('data', (d) => {
          stderr += d
        })
        const until = Date.now() + 90_000
        while (Date.now() < until) {
          const cp = await store.getCheckpoint(CHAIN_ID)
          const open = await store.db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('status', '=', 'pending')
            .execute()
          if (cp?.blockNumber === end && open.length === 0) break
          await new Promise((r) => setTimeout(r, 100))
        }
        child.kill('SIGTERM')
        expect(await exited(child), stderr).toBe(0)
        expect(kills).toBe(3)

        const deliveries = await store.db.selectFrom('webhook_deliveries').selectAll().execute()
        // Three types, 16 blocks of sends among subscribed wallets (more on the second run:
        // the chain is indexed from block 0 and holds the first run's blocks too).
        expect(deliveries.length).toBeGreaterThanOrEqual(48)
        expect(deliveries.every((d) => d.status === 'delivered')).toBe(true)
        const byId = new Map<string, string>()
        for (const r of receiver.received) {
          const id = String(r.headers['scry-webhook-id'])
          // A repeat (a kill between the POST and its record) carries the same body.
          if (byId.has(id)) expect(r.raw).toBe(byId.get(id))
          byId.set(id, r.raw)
        }
        expect([...byId.keys()].sort()).toEqual(deliveries.map((d) => d.id).sort())
        for (const d of deliveries) expect(byId.get(d.id)).toBe(d.payload)
      } finally {
        await receiver.close()
        await store.close()
        await drop()
      }
    }, 180_000)
  }
})
