import { cpus, release } from 'node:os'
import { createTestClient, createWalletClient, http, publicActions } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { createMeter } from '../src/accounts/createMeter.ts'
import { startAnvil } from '../src/dev/startAnvil.ts'
import { createChainIndexer } from '../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../src/internal/logger.ts'
import { createStore } from '../src/store/createStore.ts'
import type { DialectName } from '../src/store/dialect.ts'
import { createDeliveryWorker } from '../src/webhooks/createDeliveryWorker.ts'
import { createSubscriptions } from '../src/webhooks/createSubscriptions.ts'
import { createTestDatabase } from '../test/support/createTestStore.ts'
import { createWebhookReceiver } from '../test/support/createWebhookReceiver.ts'
import { testChainConfig } from '../test/support/testChain.ts'

// Block mined → webhook received, for 100 subscriptions on one wallet: every block makes 100
// deliveries (activities). The indexer follows the head with 1-block batches (polling every
// BENCH_POLL_MS, default 100); the worker polls the outbox every 200 ms.
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100)
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 20)
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 100)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)
const MNEMONIC = 'test test test test test test test test test test test junk'
const [sender, other] = [0, 1].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }))

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

async function run(dialect: DialectName) {
  const anvil = await startAnvil({ chainId: 1 })
  const { url, drop } = await createTestDatabase(dialect)
  const store = createStore({ url })
  const receiver = await createWebhookReceiver()
  const controller = new AbortController()
  try {
    await store.migrate()
    const subs = createSubscriptions({
      store,
      policy: { allowHttp: true, allowPrivate: true },
      enabledChains: new Set([1]),
    })
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      await subs.create({
        accountId: `acct${i % 10}`,
        input: {
          webhook_url: receiver.url,
          type: 'activities',
          chain_ids: [1],
          addresses: [sender!.address],
        },
      })
    }
    const client = createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl), cacheTime: 0 })
      .extend(publicActions)
      .extend((c) => ({
        wallet: createWalletClient({ transport: http(anvil.rpcUrl), chain: c.chain }),
      }))
    const indexer = createChainIndexer({
      chain: testChainConfig({
        chainId: 1,
        rpc: [anvil.rpcUrl],
        pollIntervalMs: POLL_MS,
        traces: 'parity',
      }),
      store,
      logger: silentLogger(),
    })
    const meter = createMeter({ store })
    const indexing = indexer.run(controller.signal).catch(() => {})
    const delivering = createDeliveryWorker({
      store,
      meter,
      logger: silentLogger(),
      allowHttp: true,
      allowPrivate: true,
      concurrency: CONCURRENCY,
    }).run(controller.signal)

    const minedAt = new Map<number, number>()
    const started = Date.now()
    for (let i = 0; i < BLOCKS; i++) {
      const hash = await client.wallet.sendTransaction({
        account: sender!,
        to: other!.address,
        value: 1n,
        chain: null,
      })
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 5 })
      minedAt.set(Number(receipt.blockNumber), Date.now())
      await new Promise((r) => setTimeout(r, 250))
    }
    await receiver.until((r) => r.length >= SUBSCRIPTIONS * BLOCKS, 120_000)
    const elapsed = (Date.now() - started) / 1000
    const latencies = receiver.received
      .map((r) => r.at - (minedAt.get(r.body.activities[0].block_number) ?? Number.NaN))
      .filter((x) => Number.isFinite(x))
      .sort((a, b) => a - b)
    console.log(
      `${dialect}: ${latencies.length} deliveries (${SUBSCRIPTIONS} subscriptions × ${BLOCKS} blocks) in ${elapsed.toFixed(1)} s; ` +
        `block mined → webhook received p50 ${pct(latencies, 50)} ms, p99 ${pct(latencies, 99)} ms, max ${latencies.at(-1)} ms`,
    )
    controller.abort()
    await Promise.all([indexing, delivering])
    await meter.close()
  } finally {
    controller.abort()
    await receiver.close()
    await store.close()
    await drop()
    await anvil.stop()
  }
}

console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, linux ${release()}, node ${process.version}`,
)
console.log(
  `Parameters: ${SUBSCRIPTIONS} subscriptions, ${BLOCKS} blocks (one tx each, 250 ms apart), indexer poll ${POLL_MS} ms, worker poll 200 ms, concurrency ${CONCURRENCY}`,
)
for (const dialect of ['sqlite', 'postgres'] as const) {
  try {
    await run(dialect)
  } catch (error) {
    console.log(`${dialect}: skipped (${error instanceof Error ? error.message : String(error)})`)
  }
}
