import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildWorld, type World } from '../../src/dev/buildWorld.ts'
import { createPrng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { createStore } from '../../src/store/createStore.ts'
import { createFaultProxy } from '../support/createFaultProxy.ts'
import { createMethodFilterProxy } from '../support/createMethodFilterProxy.ts'
import { createTestDatabase, createTestStore, DIALECTS } from '../support/createTestStore.ts'
import { digestStore } from '../support/digestStore.ts'
import { exited, spawnScryStart } from '../support/spawnScryStart.ts'
import { runIndexer, testChainConfig } from '../support/testChain.ts'

// Acceptance: crashes (SIGKILL at random points during backfill) and a faulty RPC path (30 %
// failures, delays, 429s) end in exactly the state of an uninterrupted run. Traces come from
// trace_block (anvil answers it about a hundred times faster than debug_traceBlockByNumber);
// the callTracer path is covered by the world test.
const CHAIN_ID = 1
const BATCH_SIZE = 3

let anvil: Anvil
let world: World
let reference: Record<string, string>

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID })
  world = await buildWorld({
    rpcUrl: anvil.rpcUrl,
    chainId: CHAIN_ID,
    transfers: 1500,
    txsPerBlock: 25,
  })
  const t = await createTestStore('sqlite')
  try {
    const run = runIndexer({
      indexer: createChainIndexer({
        chain: testChainConfig({
          chainId: CHAIN_ID,
          rpc: [anvil.rpcUrl],
          batchSize: BATCH_SIZE,
          traces: 'parity',
        }),
        store: t.store,
        logger: silentLogger(),
      }),
      store: t.store,
    })
    await run.synced({ block: Number(world.endBlock), timeoutMs: 120_000 })
    await run.stop()
    reference = await digestStore(t.store)
  } finally {
    await t.drop()
  }
}, 300_000)
afterAll(async () => {
  await anvil?.stop()
})

const startScry = (database: string) =>
  spawnScryStart({ chainId: CHAIN_ID, rpcUrl: anvil.rpcUrl, database, batchSize: BATCH_SIZE })

describe('resilience', () => {
  for (const dialect of DIALECTS) {
    test(`behavior: SIGKILL at random points during backfill, then restart, gives the same state (${dialect})`, async () => {
      const { url, drop } = await createTestDatabase(dialect)
      const store = createStore({ url })
      const seed = Date.now() % 100_000
      const prng = createPrng(seed)
      const checkpoints: (number | undefined)[] = []
      try {
        const end = Number(world.endBlock)
        for (let kill = 0; kill < 6; kill++) {
          const child = startScry(url)
          // Kill once the store has moved a random number of blocks past the last kill, plus a
          // random moment inside the next batch's work.
          const last = checkpoints.at(-1) ?? -1
          const target = Math.min(end - BATCH_SIZE, last + 1 + prng.int(20))
          const until = Date.now() + 60_000
          while (Date.now() < until) {
            const cp = await store.getCheckpoint(CHAIN_ID).catch(() => undefined)
            if (cp && cp.blockNumber >= target) break
            await new Promise((r) => setTimeout(r, 10))
          }
          await new Promise((r) => setTimeout(r, prng.int(80)))
          child.kill('SIGKILL')
          await exited(child)
          checkpoints.push(
            (await store.getCheckpoint(CHAIN_ID).catch(() => undefined))?.blockNumber,
          )
        }
        const child = startScry(url)
        let stderr = ''
        child.stderr?.on('data', (d) => {
          stderr += d
        })
        const until = Date.now() + 120_000
        while (Date.now() < until) {
          const cp = await store.getCheckpoint(CHAIN_ID).catch(() => undefined)
          if (cp?.blockNumber === Number(world.endBlock)) break
          await new Promise((r) => setTimeout(r, 100))
        }
        child.kill('SIGTERM')
        expect(await exited(child), stderr).toBe(0)
        // The kills must have landed before the end, or this test proves nothing.
        expect(checkpoints.filter((cp) => cp !== undefined && cp < end).length).toBeGreaterThan(2)
        const digest = await digestStore(store)
        expect(digest, `seed ${seed}, checkpoints after kills ${checkpoints.join(',')}`).toEqual(
          reference,
        )
      } finally {
        await store.close()
        await drop()
      }
    }, 240_000)
  }

  test('behavior: through a proxy that fails 30 % of calls, delays some and answers 429, the state is the same', async () => {
    const proxy = await createFaultProxy({
      target: anvil.rpcUrl,
      failRate: 0.3,
      delayRate: 0.1,
      delayMs: 200,
      rateLimitRate: 0.1,
      seed: 7,
    })
    const t = await createTestStore('sqlite')
    try {
      const run = runIndexer({
        indexer: createChainIndexer({
          chain: testChainConfig({
            chainId: CHAIN_ID,
            rpc: [proxy.url],
            batchSize: BATCH_SIZE,
            traces: 'parity',
          }),
          store: t.store,
          logger: silentLogger(),
        }),
        store: t.store,
      })
      await run.synced({ block: Number(world.endBlock), timeoutMs: 240_000 })
      await run.stop()
      expect(await digestStore(t.store)).toEqual(reference)
      const stats = proxy.stats()
      expect(stats.closed + stats.serverErrors + stats.garbage + stats.partial).toBeGreaterThan(10)
      expect(stats.rateLimited).toBeGreaterThan(0)
    } finally {
      await t.drop()
      await proxy.close()
    }
  }, 300_000)

  test('behavior: a node without eth_getBlockReceipts and debug traces is read per transaction and with trace_block', async () => {
    const proxy = await createMethodFilterProxy({
      target: anvil.rpcUrl,
      hide: ['eth_getBlockReceipts', 'debug_traceBlockByHash'],
    })
    const t = await createTestStore('sqlite')
    try {
      const run = runIndexer({
        indexer: createChainIndexer({
          chain: testChainConfig({ chainId: CHAIN_ID, rpc: [proxy.url], batchSize: BATCH_SIZE }),
          store: t.store,
          logger: silentLogger(),
        }),
        store: t.store,
      })
      await run.synced({ block: Number(world.endBlock), timeoutMs: 120_000 })
      await run.stop()
      expect(await digestStore(t.store)).toEqual(reference)
      expect(proxy.seen.get('eth_getTransactionReceipt')).toBeGreaterThan(1000)
      expect(proxy.seen.get('trace_block')).toBeGreaterThan(10)
    } finally {
      await t.drop()
      await proxy.close()
    }
  })
})
