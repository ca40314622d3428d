import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createAccounts } from '../../src/accounts/createAccounts.ts'
import { createPrng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createStore, type Store } from '../../src/store/createStore.ts'
import { readIndexerHolders } from '../../src/store/readIndexerHolders.ts'
import { createTestDatabase } from '../support/createTestStore.ts'
import { freePort } from '../support/freePort.ts'
import { scryProcesses } from '../support/scryProcesses.ts'
import { nodeHead, sendTransfers } from '../support/sendTransfers.ts'
import { until } from '../support/until.ts'

// Acceptance: in a `scry start` of two chains, a reorg deeper than one chain's finality depth
// stops that chain's indexer alone; the process goes on serving and indexing the other, and
// says what happened: `/ready` is 503 naming the chain and why, `/v1/status` gives the reason
// as the chain's `stopped`. Before, only the log said it, and the API served the dropped
// branch as if nothing had happened.
const SEED = Number(process.env.SCRY_STOPPED_SEED ?? Math.floor(Math.random() * 2 ** 31))
const prng = createPrng(SEED)
const KEPT = 1
const STOPPING = 10
let kept: Anvil
let stopping: Anvil
let store: Store
let drop: () => Promise<void>
let database: string
const children = scryProcesses()

beforeAll(async () => {
  ;[kept, stopping] = await Promise.all([
    startAnvil({ chainId: KEPT }),
    startAnvil({ chainId: STOPPING }),
  ])
  const db = await createTestDatabase('sqlite')
  database = db.url
  drop = db.drop
  store = createStore({ url: database })
  await store.migrate()
}, 60_000)

/** Six blocks of the stopping chain replaced where only three are kept for undo. */
const reorgPastFinality = () =>
  fetch(stopping.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_reorg', params: [6, []] }),
  })

/** Waits for `/ready` to refuse; its error. */
const notReady = (api: string) =>
  until({
    what: `${api}/ready 503`,
    read: async () => {
      const res = await fetch(`${api}/ready`)
      return res.status === 503 && ((await res.json()) as { error: { message: string } })
    },
  })

/** A wallet nobody uses: the answer is empty, its warnings and header are what count. */
const ZERO_WALLET = `0x${'00'.repeat(19)}01`

afterAll(async () => {
  await children.stopAll()
  await store?.close()
  await drop?.()
  await Promise.all([kept?.stop(), stopping?.stop()])
})

test("error: a reorg past one chain's finality stops that chain alone, and /ready and /v1/status say so", async () => {
  console.log(`stopped chain: seed ${SEED} (SCRY_STOPPED_SEED=${SEED} repeats it)`)
  const { key } = await createAccounts({ store }).createKey({ name: 'stopped-chain' })
  await sendTransfers({ rpcUrl: kept.rpcUrl, prng, count: 4 })
  await sendTransfers({ rpcUrl: stopping.rpcUrl, prng, count: 8 })
  const port = await freePort()
  children.start({
    chainId: KEPT,
    rpcUrl: kept.rpcUrl,
    database,
    batchSize: 2,
    extra: [
      ...['--rpc', `${STOPPING}=${stopping.rpcUrl}`, '--batch-size', `${STOPPING}=2`],
      ...['--traces', `${STOPPING}=parity`, '--finality-depth', `${STOPPING}=3`],
      ...['--poll-interval-ms', `${KEPT}=100`, '--poll-interval-ms', `${STOPPING}=100`],
      ...['--port', String(port)],
    ],
  })
  const api = `http://127.0.0.1:${port}`
  const status = async () => {
    const res = await fetch(`${api}/v1/status`, { headers: { 'x-scry-api-key': key } })
    const body = (await res.json()) as {
      chains: { chain_id: number; indexed_block: number | null; stopped: string | null }[]
    }
    return new Map(body.chains.map((c) => [c.chain_id, c]))
  }
  const atHead = async (anvil: Anvil, chainId: number) => {
    const head = Number((await nodeHead(anvil.rpcUrl)).number)
    return (await status()).get(chainId)?.indexed_block === head
  }
  await until({
    what: 'both chains at their heads',
    read: async () => (await atHead(kept, KEPT)) && atHead(stopping, STOPPING),
  })
  expect((await fetch(`${api}/ready`)).status).toBe(200)
  expect([...(await status()).values()].map((c) => c.stopped)).toEqual([null, null])

  // Six blocks replaced where only three are kept for undo.
  await reorgPastFinality()
  const ready = await notReady(api)
  expect(ready.error.message).toMatch(
    /^The indexer of chain 10 \(optimism\) stopped, and its answers no longer follow the node: Chain 10: reorg deeper than 3 blocks \(the finality depth\)/,
  )
  expect(ready.error.message).toMatch(/Raise finalityDepth/)
  const after = await status()
  expect(after.get(STOPPING)?.stopped).toMatch(/^Chain 10: reorg deeper than 3 blocks/)
  expect(after.get(KEPT)?.stopped).toBeNull()
  // A data answer that read the stopped chain says so; one that did not, does not.
  const warningsOf = async (chainIds: string) => {
    const res = await fetch(`${api}/v1/evm/balances/${ZERO_WALLET}?chain_ids=${chainIds}`, {
      headers: { 'x-scry-api-key': key },
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { warnings?: { code: string; chain_ids?: number[] }[] }).warnings
  }
  expect(await warningsOf(`${KEPT},${STOPPING}`)).toEqual([
    expect.objectContaining({ code: 'CHAIN_STOPPED', chain_ids: [STOPPING] }),
  ])
  expect(await warningsOf(String(KEPT))).toBeUndefined()

  // The other chain is still indexed.
  await sendTransfers({ rpcUrl: kept.rpcUrl, prng, count: 2 })
  await until({ what: 'chain 1 at its new head', read: () => atHead(kept, KEPT) })
}, 120_000)

test('error: when the only chain of a process stops, the process goes on serving and says why', async () => {
  const db = await createTestDatabase('sqlite')
  const only = createStore({ url: db.url })
  try {
    await only.migrate()
    const { key } = await createAccounts({ store: only }).createKey({ name: 'only-chain' })
    await sendTransfers({ rpcUrl: stopping.rpcUrl, prng, count: 4 })
    const port = await freePort()
    const child = children.start({
      chainId: STOPPING,
      rpcUrl: stopping.rpcUrl,
      database: db.url,
      batchSize: 2,
      extra: [
        ...['--finality-depth', `${STOPPING}=3`, '--poll-interval-ms', `${STOPPING}=100`],
        ...['--port', String(port)],
      ],
    })
    const api = `http://127.0.0.1:${port}`
    const head = Number((await nodeHead(stopping.rpcUrl)).number)
    await until({
      what: 'the chain at its head',
      read: async () => {
        const res = await fetch(`${api}/v1/status`, { headers: { 'x-scry-api-key': key } })
        const body = (await res.json()) as { chains: { indexed_block: number | null }[] }
        return body.chains[0]?.indexed_block === head
      },
    })
    await reorgPastFinality()
    await notReady(api)
    // Still up a while later: the API answers, and the process has not exited.
    await new Promise((r) => setTimeout(r, 1_000))
    expect(child.exitCode).toBeNull()
    expect((await fetch(`${api}/health`)).status).toBe(200)
    const balances = await fetch(
      `${api}/v1/evm/balances/0x0000000000000000000000000000000000000001?chain_ids=${STOPPING}`,
      { headers: { 'x-scry-api-key': key } },
    )
    expect(balances.status).toBe(200)
  } finally {
    await children.stopAll()
    await only.close()
    await db.drop()
  }
}, 120_000)

const SCRY = fileURLToPath(new URL('../../bin/scry.js', import.meta.url))
/** A `scry` command to its end: exit code and output (a non-zero exit is not thrown). */
async function scry(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRY, ...args])
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

test('error: on PostgreSQL, an API replica that indexes nothing knows the chain stopped in another process, until it is reset', async () => {
  const db = await createTestDatabase('postgres')
  const pgStore = createStore({ url: db.url })
  try {
    await pgStore.migrate()
    const { key } = await createAccounts({ store: pgStore }).createKey({ name: 'replica' })
    await sendTransfers({ rpcUrl: stopping.rpcUrl, prng, count: 4 })
    const common = { chainId: STOPPING, rpcUrl: stopping.rpcUrl, database: db.url, batchSize: 2 }
    const chainFlags = [
      '--finality-depth',
      `${STOPPING}=3`,
      '--poll-interval-ms',
      `${STOPPING}=100`,
    ]
    const indexer = children.start({ ...common, extra: [...chainFlags, '--role', 'indexer'] })
    const port = await freePort()
    children.start({ ...common, extra: [...chainFlags, '--role', 'api', '--port', String(port)] })
    const api = `http://127.0.0.1:${port}`
    const status = async () => {
      const res = await fetch(`${api}/v1/status`, { headers: { 'x-scry-api-key': key } })
      if (res.status !== 200) return undefined
      const body = (await res.json()) as {
        chains: { indexed_block: number | null; stopped: string | null }[]
      }
      return body.chains[0]
    }
    const head = Number((await nodeHead(stopping.rpcUrl)).number)
    await until({
      what: 'the chain at its head, seen from the replica',
      read: async () => (await status())?.indexed_block === head,
    })
    expect((await fetch(`${api}/ready`)).status).toBe(200)
    const balances = async () => {
      const res = await fetch(`${api}/v1/evm/balances/${ZERO_WALLET}?chain_ids=${STOPPING}`, {
        headers: { 'x-scry-api-key': key },
      })
      expect(res.status).toBe(200)
      return ((await res.json()) as { warnings?: { code: string; chain_ids?: number[] }[] })
        .warnings
    }
    expect(await balances()).toBeUndefined()

    await reorgPastFinality()
    // The indexer-only process stops (exit 1: it has nothing left to do); the replica says why.
    const ready = await notReady(api)
    expect(ready.error.message).toMatch(
      /^The indexer of chain 10 \(optimism\) stopped, and its answers no longer follow the node: Chain 10: reorg deeper than 3 blocks/,
    )
    expect((await status())?.stopped).toMatch(/^Chain 10: reorg deeper than 3 blocks/)
    expect(await balances()).toEqual([
      expect.objectContaining({ code: 'CHAIN_STOPPED', chain_ids: [STOPPING] }),
    ])
    await until({ what: 'the indexer process gone', read: async () => indexer.exitCode !== null })
    expect(indexer.exitCode).toBe(1)
    expect((await readIndexerHolders(pgStore)).get(STOPPING)).toMatchObject({
      active: false,
      stopped: expect.stringMatching(/^Chain 10: reorg deeper/),
    })

    const flags = ['--database', db.url, '--rpc', `${STOPPING}=${stopping.rpcUrl}`]
    const stoppedStatus = await scry(['status', '--json', ...flags])
    expect(stoppedStatus.code, stoppedStatus.stderr).toBe(1)
    expect(stoppedStatus.stderr).toMatch(/error: optimism \(10\) stopped: Chain 10: reorg deeper/)
    expect(JSON.parse(stoppedStatus.stdout).chains[0].stopped).toMatch(/^Chain 10: reorg/)

    // The way back: reset the chain. The replica stops warning (it reads every 2 s at most).
    const reset = await scry(['reset-chain', String(STOPPING), '--yes', '--database', db.url])
    expect(reset.code, reset.stderr).toBe(0)
    await until({
      what: "the replica's /ready 200 after the reset",
      read: async () => (await fetch(`${api}/ready`)).status === 200,
    })
    expect((await status())?.stopped).toBeNull()
    expect((await scry(['status', '--json', ...flags])).code).toBe(0)
  } finally {
    await children.stopAll()
    await pgStore.close()
    await db.drop()
  }
}, 120_000)
