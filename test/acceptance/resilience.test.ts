import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { TracesMode } from '../../src/config/types.ts'
import { buildWorld, type World } from '../../src/dev/buildWorld.ts'
import { createPrng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { createStore, type Store } from '../../src/store/createStore.ts'
import type { DialectName } from '../../src/store/dialect.ts'
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
  reference = await indexWorld({ rpcUrl: anvil.rpcUrl, traces: 'parity' })
}, 300_000)

/** The world indexed through `rpcUrl` into a fresh SQLite store, to the end: its digest. */
async function indexWorld({ rpcUrl, traces }: { rpcUrl: string; traces?: TracesMode }) {
  const t = await createTestStore('sqlite')
  try {
    const run = runIndexer({
      indexer: createChainIndexer({
        chain: testChainConfig({
          chainId: CHAIN_ID,
          rpc: [rpcUrl],
          batchSize: BATCH_SIZE,
          ...(traces ? { traces } : {}),
        }),
        store: t.store,
        logger: silentLogger(),
      }),
      store: t.store,
    })
    await run.synced({ block: Number(world.endBlock), timeoutMs: 120_000 })
    await run.stop()
    return await digestStore(t.store)
  } finally {
    await t.drop()
  }
}
afterAll(async () => {
  await anvil?.stop()
})

/** Waits until the store's checkpoint is at `block` or past it. */
async function checkpointReaches(store: Store, block: number, timeoutMs = 120_000) {
  for (const until = Date.now() + timeoutMs; Date.now() < until; ) {
    const cp = await store.getCheckpoint(CHAIN_ID).catch(() => undefined)
    if (cp && cp.blockNumber >= block) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`checkpoint did not reach block ${block} in ${timeoutMs} ms`)
}

/**
 * Takes the store's write lock as another writer would, until the returned release: SQLite's
 * database lock (`BEGIN IMMEDIATE`; a writer waits up to its busy timeout, 5 s), PostgreSQL's
 * lock on `checkpoints`, which every batch's transaction writes last.
 */
async function holdWrites(dialect: DialectName, url: string): Promise<() => Promise<void>> {
  if (dialect === 'sqlite') {
    const db = new Database(url)
    db.pragma('busy_timeout = 5000')
    db.exec('BEGIN IMMEDIATE')
    return async () => {
      db.exec('ROLLBACK')
      db.close()
    }
  }
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query('BEGIN')
  await client.query('LOCK TABLE checkpoints IN EXCLUSIVE MODE')
  return async () => {
    await client.query('ROLLBACK')
    await client.end()
  }
}

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

  for (const dialect of DIALECTS) {
    test(`behavior: SIGKILL with batches prepared and fetched but none committed, then restart, gives the same state (${dialect})`, async () => {
      const { url, drop } = await createTestDatabase(dialect)
      const store = createStore({ url })
      // Watches the child's node traffic: the highest block it fetched, and when it last asked.
      let fetchedUpTo = -1
      let lastCall = Date.now()
      const proxy = await createMethodFilterProxy({
        target: anvil.rpcUrl,
        refuse: ({ method, params }) => {
          lastCall = Date.now()
          const block = typeof params[0] === 'string' ? Number(params[0]) : Number.NaN
          if (method === 'eth_getBlockByNumber' && Number.isInteger(block))
            fetchedUpTo = Math.max(fetchedUpTo, block)
          return undefined
        },
      })
      let release: (() => Promise<void>) | undefined
      try {
        const child = spawnScryStart({
          chainId: CHAIN_ID,
          rpcUrl: proxy.url,
          database: url,
          batchSize: BATCH_SIZE,
        })
        await checkpointReaches(store, 30)
        // Another writer holds the store: the child's next commit waits inside its
        // transaction while the pipeline prepares the batches behind it and fetches ahead.
        release = await holdWrites(dialect, url)
        const held = (await store.getCheckpoint(CHAIN_ID))!.blockNumber
        for (const until = Date.now() + 20_000; Date.now() < until; ) {
          if (Date.now() - lastCall > 1_000) break
          await new Promise((r) => setTimeout(r, 50))
        }
        // Three batches prepared (one commit waiting, two queued) and windows fetched past
        // them, none committed.
        expect(fetchedUpTo).toBeGreaterThanOrEqual(held + 3 * BATCH_SIZE)
        child.kill('SIGKILL')
        await exited(child)
        await release()
        release = undefined
        expect((await store.getCheckpoint(CHAIN_ID))?.blockNumber).toBe(held)
        const again = spawnScryStart({
          chainId: CHAIN_ID,
          rpcUrl: anvil.rpcUrl,
          database: url,
          batchSize: BATCH_SIZE,
        })
        let stderr = ''
        again.stderr?.on('data', (d) => {
          stderr += d
        })
        await checkpointReaches(store, Number(world.endBlock))
        again.kill('SIGTERM')
        expect(await exited(again), stderr).toBe(0)
        expect(await digestStore(store), `held at ${held}, fetched up to ${fetchedUpTo}`).toEqual(
          reference,
        )
      } finally {
        await release?.()
        await proxy.close()
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

  test('edge: the head block probed at start is reorged away before its trace is asked (an error, not "unsupported"): the probe is tried again and indexing goes on', async () => {
    let refusals = 0
    const proxy = await createMethodFilterProxy({
      target: anvil.rpcUrl,
      // What anvil answers for a block it no longer has.
      refuse: ({ method }) =>
        method === 'trace_block' && refusals++ === 0
          ? { code: -32001, message: 'Resource not found' }
          : undefined,
    })
    try {
      expect(await indexWorld({ rpcUrl: proxy.url, traces: 'parity' })).toEqual(reference)
      expect(refusals).toBeGreaterThan(1)
    } finally {
      await proxy.close()
    }
  })
})
