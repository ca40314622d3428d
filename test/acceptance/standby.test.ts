import type { ChildProcess } from 'node:child_process'
import { sql } from 'kysely'
import { type Hex, numberToHex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildWorld, type World } from '../../src/dev/buildWorld.ts'
import { createPrng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { createStore, type Store } from '../../src/store/createStore.ts'
import { leaseKey } from '../../src/store/leaseKey.ts'
import { readIndexerHolders } from '../../src/store/readIndexerHolders.ts'
import { compareWithNode } from '../support/compareWithNode.ts'
import { createTestDatabase, createTestStore } from '../support/createTestStore.ts'
import { digestStore } from '../support/digestStore.ts'
import { exited, spawnScryStart } from '../support/spawnScryStart.ts'
import { runIndexer, testChainConfig } from '../support/testChain.ts'

// Acceptance (issue 12): indexers for one chain on one PostgreSQL database, as separate
// `scry start --role indexer` processes. One holds the chain's lock and writes; the others
// stand by and take over within 10 s when it is SIGKILLed or its lock connection is cut.
// The state at the end equals a clean single-process run and the node.
const BATCH_SIZE = 3
const TAKEOVER_MS = 10_000
const SEED = Number(process.env.SCRY_STANDBY_SEED ?? Math.floor(Math.random() * 2 ** 31))
const prng = createPrng(SEED)

let anvil: Anvil
let world: World
beforeAll(async () => {
  console.log(`standby: seed ${SEED} (SCRY_STANDBY_SEED=${SEED} repeats it)`)
  anvil = await startAnvil({ chainId: 1 })
  world = await buildWorld({ rpcUrl: anvil.rpcUrl, chainId: 1, transfers: 900, txsPerBlock: 8 })
}, 300_000)
afterAll(async () => {
  await anvil?.stop()
})

type Lease = { owner: string; pid: number; chain_id: number }
const leaseOf = async (store: Store, chainId: number): Promise<Lease | undefined> =>
  (await store.db
    .selectFrom('indexer_leases')
    .select(['owner', 'pid', 'chain_id'])
    .where('chain_id', '=', chainId)
    .executeTakeFirst()) as Lease | undefined

async function until<T>(what: string, read: () => Promise<T | undefined>, ms = 60_000) {
  const end = Date.now() + ms
  for (;;) {
    const value = await read().catch(() => undefined)
    if (value !== undefined && value !== false) return value
    if (Date.now() > end) throw new Error(`seed ${SEED}: ${what} within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result: T; error?: unknown }
  if (body.error) throw new Error(JSON.stringify(body.error))
  return body.result
}

/** A few live transfers between the world's wallets (anvil mines each at once). */
async function drive(url: string, count: number): Promise<void> {
  const accounts = await rpc<Hex[]>(url, 'eth_accounts')
  for (let i = 0; i < count; i++) {
    const [from, to] = prng.sample(accounts.slice(0, 10), 2) as [Hex, Hex]
    const hash = await rpc<Hex>(url, 'eth_sendTransaction', [
      { from, to, value: numberToHex(BigInt(prng.between(1, 10 ** 6))) },
    ])
    await until('receipt', () =>
      rpc(url, 'eth_getTransactionReceipt', [hash]).then((r) => r ?? undefined),
    )
  }
}

/** Every child this test started, killed at the end whatever happened. */
function processes() {
  const all = new Set<ChildProcess>()
  return {
    start(args: Parameters<typeof spawnScryStart>[0]) {
      const child = spawnScryStart(args)
      all.add(child)
      child.once('exit', () => all.delete(child))
      return child
    },
    async stopAll() {
      for (const child of all) child.kill('SIGKILL')
      await Promise.all([...all].map(exited))
    },
  }
}

describe('standby indexers (postgres)', () => {
  test('behavior: the standby takes over within 10 s each time the active indexer is killed or cut off; the state equals a clean run and the node', async () => {
    const { url, drop } = await createTestDatabase('postgres')
    const store = createStore({ url })
    const children = processes()
    const indexer = () =>
      children.start({
        chainId: 1,
        rpcUrl: anvil.rpcUrl,
        database: url,
        batchSize: BATCH_SIZE,
        extra: ['--role', 'indexer'],
      })
    try {
      await store.migrate()
      indexer()
      indexer()
      let lease = await until('a first holder', () => leaseOf(store, 1))
      const faults = prng.sample(['kill', 'kill', 'kill', 'cut'] as const, 4)
      const takeovers: number[] = []
      for (const fault of faults) {
        // Let the holder write a random number of blocks (or wait on the head), then strike
        // at a random moment of its work.
        const at = (await store.getCheckpoint(1))?.blockNumber ?? -1
        const target = Math.min(at + prng.between(1, 12), Number(world.endBlock))
        await until('progress before the fault', async () => {
          const cp = await store.getCheckpoint(1)
          return cp !== undefined && cp.blockNumber >= target
        })
        await new Promise((r) => setTimeout(r, prng.int(60)))
        const struck = Date.now()
        if (fault === 'kill') process.kill(lease.pid, 'SIGKILL')
        else {
          const key = leaseKey(1)
          await sql`select pg_terminate_backend(pid) from pg_locks
            where locktype = 'advisory' and granted
              and classid = ${Number(key >> 32n)} and objid = ${Number(key & 0xffffffffn)}`.execute(
            store.db,
          )
        }
        const previous = lease.owner
        lease = await until(
          `a takeover after ${fault}`,
          async () => {
            const now = await leaseOf(store, 1)
            return now && now.owner !== previous ? now : undefined
          },
          TAKEOVER_MS * 3,
        )
        takeovers.push(Date.now() - struck)
        // Keep a standby: a killed process is replaced; a cut one stands by by itself.
        if (fault === 'kill') indexer()
        await drive(anvil.rpcUrl, prng.between(1, 4))
      }
      console.log(`standby: seed ${SEED}, faults ${faults.join(',')}, takeovers ms ${takeovers}`)
      for (const [i, ms] of takeovers.entries()) {
        expect(ms, `seed ${SEED}: takeover after ${faults[i]}`).toBeLessThan(TAKEOVER_MS)
      }

      const holders = await readIndexerHolders(store)
      expect(holders.get(1)).toMatchObject({ pid: lease.pid, active: true })

      // Catch up with the node's head, by hash.
      const head = await until('the head indexed', async () => {
        const block = await rpc<{ number: Hex; hash: Hex }>(anvil.rpcUrl, 'eth_getBlockByNumber', [
          'latest',
          false,
        ])
        const cp = await store.getCheckpoint(1)
        return cp?.blockHash === block.hash ? BigInt(block.number) : undefined
      })
      const { mismatches, checked } = await compareWithNode({
        store,
        rpcUrl: anvil.rpcUrl,
        chainId: 1,
        block: head,
        wallets: world.wallets,
      })
      expect(checked.native).toBeGreaterThan(50)
      expect(checked.tokenBalances).toBeGreaterThan(50)
      expect(mismatches, `seed ${SEED}`).toEqual([])

      // A clean single-process run of the same chain holds exactly the same data.
      const clean = await createTestStore('sqlite')
      try {
        const run = runIndexer({
          indexer: createChainIndexer({
            chain: testChainConfig({
              chainId: 1,
              rpc: [anvil.rpcUrl],
              batchSize: BATCH_SIZE,
              traces: 'parity',
            }),
            store: clean.store,
            logger: silentLogger(),
          }),
          store: clean.store,
        })
        await run.synced({ block: Number(head), timeoutMs: 120_000 })
        await run.stop()
        expect(await digestStore(store), `seed ${SEED}`).toEqual(await digestStore(clean.store))
      } finally {
        await clean.drop()
      }
    } finally {
      await children.stopAll()
      await store.close()
      await drop()
    }
  }, 300_000)

  test('behavior: indexers with different --chains split the work; one with overlapping chains stands by and takes over', async () => {
    const base = await startAnvil({ chainId: 8453 })
    const { url, drop } = await createTestDatabase('postgres')
    const store = createStore({ url })
    const children = processes()
    const indexer = (chains: string) =>
      children.start({
        chainId: 1,
        rpcUrl: anvil.rpcUrl,
        database: url,
        batchSize: BATCH_SIZE,
        extra: [
          ...['--rpc', `8453=${base.rpcUrl}`, '--traces', '8453=parity'],
          ...['--role', 'indexer', '--chains', chains],
        ],
      })
    try {
      await store.migrate()
      await drive(base.rpcUrl, 3)
      const one = indexer('1')
      const other = indexer('8453')
      const holderOf = async (chainId: number, pid: number | undefined) => {
        const lease = await leaseOf(store, chainId)
        return lease && lease.pid === pid ? lease : undefined
      }
      await until('chain 1 held by the first', () => holderOf(1, one.pid))
      await until('chain 8453 held by the second', () => holderOf(8453, other.pid))
      const spare = indexer('1,8453')
      // The spare stands by: given time to start, it takes neither chain from its holder.
      await new Promise((r) => setTimeout(r, 4_000))
      expect((await leaseOf(store, 1))?.pid).toBe(one.pid)
      expect((await leaseOf(store, 8453))?.pid).toBe(other.pid)

      const struck = Date.now()
      one.kill('SIGKILL')
      await until('chain 1 taken over by the spare', () => holderOf(1, spare.pid), TAKEOVER_MS)
      console.log(`standby: --chains takeover in ${Date.now() - struck} ms`)
      expect((await leaseOf(store, 8453))?.pid).toBe(other.pid)
      // Both chains go on being indexed to their heads.
      await drive(base.rpcUrl, 2)
      for (const [chainId, node] of [
        [1, anvil.rpcUrl],
        [8453, base.rpcUrl],
      ] as const) {
        await until(`chain ${chainId} at the head`, async () => {
          const head = await rpc<{ hash: Hex }>(node, 'eth_getBlockByNumber', ['latest', false])
          return (await store.getCheckpoint(chainId))?.blockHash === head.hash
        })
      }
    } finally {
      await children.stopAll()
      await store.close()
      await drop()
      await base.stop()
    }
  }, 120_000)
})
