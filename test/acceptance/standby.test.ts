import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildWorld, type World } from '../../src/dev/buildWorld.ts'
import { createPrng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createStore } from '../../src/store/createStore.ts'
import { readIndexerHolders } from '../../src/store/readIndexerHolders.ts'
import { compareWithNode } from '../support/compareWithNode.ts'
import { createTestDatabase } from '../support/createTestStore.ts'
import { digestCleanRun } from '../support/digestCleanRun.ts'
import { digestStore } from '../support/digestStore.ts'
import { leaseOf, untilConnected } from '../support/indexerLeases.ts'
import { scryProcesses } from '../support/scryProcesses.ts'
import { nodeHead, sendTransfers } from '../support/sendTransfers.ts'
import { strikeIndexers } from '../support/strikeIndexers.ts'
import { until } from '../support/until.ts'

// Acceptance (issue 12): indexers for one chain on one PostgreSQL database, as separate
// `scry start --role indexer` processes. One holds the chain's lock and writes; the others
// stand by and take over within 10 s when it is SIGKILLed or its lock connection is cut, and
// within 10 s of `--standby-takeover-seconds` when it is stopped (SIGSTOP) with its lock.
// The state at the end equals a clean single-process run and the node.
const BATCH_SIZE = 3
const TAKEOVER_MS = 10_000
const SILENT_SECONDS = 10
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

const where = `seed ${SEED}`

describe('standby indexers (postgres)', () => {
  test('behavior: the standby takes over within 10 s each time the active indexer is killed or cut off, and once a stopped one has been silent too long; the state equals a clean run and the node', async () => {
    const { url, drop } = await createTestDatabase('postgres')
    const store = createStore({ url })
    const children = scryProcesses()
    const indexer = () =>
      children.start({
        chainId: 1,
        rpcUrl: anvil.rpcUrl,
        database: url,
        batchSize: BATCH_SIZE,
        extra: ['--role', 'indexer', '--standby-takeover-seconds', String(SILENT_SECONDS)],
      })
    try {
      await store.migrate()
      indexer()
      indexer()
      const faults = prng.sample(['kill', 'kill', 'kill', 'cut', 'freeze'] as const, 5)
      const { takeovers, lease } = await strikeIndexers({
        store,
        chainId: 1,
        faults,
        prng,
        lastBlock: Number(world.endBlock),
        where,
        fateOf: children.fateOf,
        ms: TAKEOVER_MS * 3 + SILENT_SECONDS * 1000,
        // Keep a standby: a killed process is replaced; a cut or thawed one stands by itself.
        after: async (fault) => {
          if (fault === 'kill') await untilConnected(store, indexer().pid ?? -1, where)
          await sendTransfers({ rpcUrl: anvil.rpcUrl, prng, count: prng.between(1, 4) })
        },
      })
      console.log(`standby: seed ${SEED}, faults ${faults.join(',')}, takeovers ms ${takeovers}`)
      for (const [i, ms] of takeovers.entries()) {
        const limit = TAKEOVER_MS + (faults[i] === 'freeze' ? SILENT_SECONDS * 1000 : 0)
        expect(ms, `seed ${SEED}: takeover after ${faults[i]}`).toBeLessThan(limit)
        if (faults[i] === 'freeze') {
          expect(ms, `seed ${SEED}: not before the holder was silent`).toBeGreaterThan(
            SILENT_SECONDS * 1000 - 3000,
          )
        }
      }

      const holders = await readIndexerHolders(store)
      expect(holders.get(1)).toMatchObject({ pid: lease.pid, active: true })

      // Catch up with the node's head, by hash.
      const head = await until({
        what: 'the head indexed',
        where,
        read: async () => {
          const block = await nodeHead(anvil.rpcUrl)
          const cp = await store.getCheckpoint(1)
          return cp?.blockHash === block.hash ? block.number : undefined
        },
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
      expect(mismatches, where).toEqual([])

      // A clean single-process run of the same chain holds exactly the same data.
      const clean = await digestCleanRun({
        rpcUrl: anvil.rpcUrl,
        chainId: 1,
        batchSize: BATCH_SIZE,
        block: Number(head),
      })
      expect(await digestStore(store), where).toEqual(clean)
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
    const children = scryProcesses()
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
      await sendTransfers({ rpcUrl: base.rpcUrl, prng, count: 3 })
      const one = indexer('1')
      const other = indexer('8453')
      const holderOf = async (chainId: number, pid: number | undefined) => {
        const lease = await leaseOf(store, chainId)
        return lease && lease.pid === pid ? lease : undefined
      }
      await until({ what: 'chain 1 held by the first', read: () => holderOf(1, one.pid), where })
      await until({
        what: 'chain 8453 held by the second',
        read: () => holderOf(8453, other.pid),
        where,
      })
      const spare = indexer('1,8453')
      // The spare stands by: given time to start, it takes neither chain from its holder.
      await new Promise((r) => setTimeout(r, 4_000))
      expect((await leaseOf(store, 1))?.pid).toBe(one.pid)
      expect((await leaseOf(store, 8453))?.pid).toBe(other.pid)

      const struck = Date.now()
      one.kill('SIGKILL')
      await until({
        what: 'chain 1 taken over by the spare',
        read: () => holderOf(1, spare.pid),
        ms: TAKEOVER_MS,
        where,
      })
      console.log(`standby: --chains takeover in ${Date.now() - struck} ms`)
      expect((await leaseOf(store, 8453))?.pid).toBe(other.pid)
      // Both chains go on being indexed to their heads.
      await sendTransfers({ rpcUrl: base.rpcUrl, prng, count: 2 })
      for (const [chainId, node] of [
        [1, anvil.rpcUrl],
        [8453, base.rpcUrl],
      ] as const) {
        await until({
          what: `chain ${chainId} at the head`,
          where,
          read: async () =>
            (await store.getCheckpoint(chainId))?.blockHash === (await nodeHead(node)).hash,
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
