import type { ChildProcess } from 'node:child_process'
import { type Address, createPublicClient, type Hex, http, numberToHex } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createAccounts } from '../../src/accounts/createAccounts.ts'
import { parseBlockNumbers } from '../../src/api/blockNumbersHeader.ts'
import { buildWorld, type World } from '../../src/dev/buildWorld.ts'
import { createPrng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createStore, type Store } from '../../src/store/createStore.ts'
import { subscribe } from '../support/createWebhookReceiver.ts'
import { freePort } from '../support/freePort.ts'
import { exited, spawnScryStart } from '../support/spawnScryStart.ts'
import { type PgReplica, startPgReplica } from '../support/startPgReplica.ts'
import { until } from '../support/until.ts'

// Acceptance (issue 12): `scry start --database-read <replica>` on a real PostgreSQL
// streaming standby. Data answers come from the replica (with replay paused they stay at the
// replica's block while the primary moves on), writes go to the primary, the lag shows in
// /v1/status and /metrics, and /ready fails while the replica is down.
const CHAIN_ID = 1
const SEED = Number(process.env.SCRY_REPLICA_SEED ?? Math.floor(Math.random() * 2 ** 31))
const prng = createPrng(SEED)
const where = `seed ${SEED}`

let anvil: Anvil
let world: World
let pgs: PgReplica
let primary: Store
let scry: ChildProcess
let api: string
let key: string
const node = () => createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 })

beforeAll(async () => {
  console.log(`read replica: seed ${SEED} (SCRY_REPLICA_SEED=${SEED} repeats it)`)
  anvil = await startAnvil({ chainId: CHAIN_ID })
  world = await buildWorld({ rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID, transfers: 60 })
  pgs = await startPgReplica()
  primary = createStore({ url: pgs.primaryUrl })
  await primary.migrate()
  ;({ key } = await createAccounts({ store: primary }).createKey({ name: 'replica test' }))
  const port = await freePort()
  api = `http://127.0.0.1:${port}`
  scry = spawnScryStart({
    chainId: CHAIN_ID,
    rpcUrl: anvil.rpcUrl,
    database: pgs.primaryUrl,
    batchSize: 20,
    extra: [
      '--database-read',
      pgs.replicaUrl,
      '--port',
      String(port),
      '--webhooks-allow-http',
      'true',
      '--webhooks-allow-private-addresses',
      'true',
      '--poll-interval-ms',
      `${CHAIN_ID}=100`,
    ],
  })
}, 300_000)

afterAll(async () => {
  scry?.kill('SIGTERM')
  if (scry) await exited(scry)
  await primary?.close()
  pgs?.stop()
  await anvil?.stop()
})

const get = async (path: string) => {
  const res = await fetch(`${api}${path}`, { headers: { 'x-scry-api-key': key } })
  return { status: res.status, headers: res.headers, body: (await res.json()) as any }
}

/** The status once the primary holds the node's head; the replica may lag. */
const primaryAtHead = async () => {
  const head = Number(await node().getBlockNumber())
  return until({
    what: `primary at ${head}`,
    where,
    read: async () => {
      const status = await get('/v1/status')
      return status.body.chains?.[0]?.indexed_block === head && status.body
    },
  })
}

/** Every wallet's native balance as the API serves it equals the node at the answer's block. */
async function checkBalances(wallets: readonly Address[]): Promise<number> {
  let block: number | undefined
  for (const wallet of wallets) {
    const res = await get(`/v1/evm/balances/${wallet}?chain_ids=${CHAIN_ID}`)
    expect(res.status, `seed ${SEED}`).toBe(200)
    const at = parseBlockNumbers(res.headers.get('x-scry-block-numbers')).get(String(CHAIN_ID))
    block ??= at
    expect(at, `seed ${SEED}: one block for every answer`).toBe(block)
    const native = res.body.balances.find((b: { address: string }) => b.address === 'native')
    const onNode = await node().getBalance({ address: wallet, blockNumber: BigInt(at ?? 0) })
    expect(BigInt(native?.amount ?? 0), `seed ${SEED}: ${wallet} at ${at}`).toBe(onNode)
  }
  return block ?? -1
}

async function sendTransfers(count: number): Promise<void> {
  const client = node()
  for (let i = 0; i < count; i++) {
    const [from, to] = prng.sample(world.wallets.slice(0, 10), 2) as [Address, Address]
    const hash = await client.request({
      method: 'eth_sendTransaction',
      params: [{ from, to, value: numberToHex(BigInt(prng.between(1, 10 ** 9))) }],
    } as never)
    await client.waitForTransactionReceipt({ hash: hash as Hex, pollingInterval: 20 })
  }
}

test('behavior: answers come from the replica, writes go to the primary, lag is shown', async () => {
  const wallets = prng.sample(world.wallets, 8)
  // In step: the replica has replayed everything.
  await primaryAtHead()
  const inStep = await until({
    what: 'replica in step',
    where,
    read: async () => {
      const s = (await get('/v1/status')).body
      return s.chains[0].replica_lag_blocks === 0 && s
    },
  })
  expect(inStep.read_replica).toEqual({ lag_seconds: expect.any(Number), reachable: true })
  expect(await checkBalances(wallets)).toBe(inStep.chains[0].indexed_block)

  // Replay paused: the primary moves on, answers stay at the replica's block.
  await pgs.pauseReplay()
  const frozen = await checkBalances(wallets)
  await sendTransfers(prng.between(3, 8))
  const moved = await primaryAtHead()
  const behind = moved.chains[0].indexed_block - frozen
  expect(behind, `seed ${SEED}`).toBeGreaterThan(0)
  expect(moved.chains[0].replica_lag_blocks, `seed ${SEED}`).toBe(behind)
  expect(moved.read_replica.lag_seconds, `seed ${SEED}`).toBeGreaterThan(0)
  expect(await checkBalances(wallets)).toBe(frozen)
  const metrics = await (await fetch(`${api}/metrics`)).text()
  expect(metrics).toContain(`scry_read_replica_lag_blocks{chain_id="${CHAIN_ID}"} ${behind}`)
  expect(metrics).toMatch(/^scry_read_replica_lag_seconds [0-9.]+$/m)

  // Writes land on the primary while the replica is read-only and paused.
  const sub = await subscribe({
    api: { url: api, key },
    body: {
      webhook_url: 'http://127.0.0.1:9/hook',
      type: 'balances',
      chain_ids: [CHAIN_ID],
      addresses: [wallets[0]],
    },
  })
  expect(sub.id).toBeTruthy()

  // Resumed: the replica catches up and answers are at the head again.
  await pgs.resumeReplay()
  const caughtUp = await until({
    what: 'replica caught up',
    where,
    read: async () => {
      const s = (await get('/v1/status')).body
      return s.chains[0].replica_lag_blocks === 0 && s
    },
  })
  expect(await checkBalances(wallets)).toBe(caughtUp.chains[0].indexed_block)

  // The replica down: /ready says so, /health does not care, data answers are 503.
  pgs.stopReplica()
  const ready = await fetch(`${api}/ready`)
  expect(ready.status).toBe(503)
  expect(await ready.json()).toMatchObject({
    error: { message: 'The read replica (databaseRead) is unreachable.' },
  })
  expect((await fetch(`${api}/health`)).status).toBe(200)
  const down = await get(`/v1/evm/balances/${wallets[0]}?chain_ids=${CHAIN_ID}`)
  expect(down.status).toBe(503)
  // /v1/status reads the primary: it answers, with the replica's lag unknown.
  const status = await get('/v1/status')
  expect(status.status).toBe(200)
  expect(status.body.read_replica).toEqual({ lag_seconds: null, reachable: false })
  expect(status.body.chains[0]).toMatchObject({
    indexed_block: caughtUp.chains[0].indexed_block,
    replica_lag_blocks: null,
  })
}, 300_000)
