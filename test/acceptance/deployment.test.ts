import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createAccounts } from '../../src/accounts/createAccounts.ts'
import { buildWorld, type World } from '../../src/dev/buildWorld.ts'
import { createPrng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createStore, type Store } from '../../src/store/createStore.ts'
import { compareWithNode } from '../support/compareWithNode.ts'
import { createTestDatabase } from '../support/createTestStore.ts'
import { createWebhookReceiver, subscribe } from '../support/createWebhookReceiver.ts'
import { digestCleanRun } from '../support/digestCleanRun.ts'
import { digestStore } from '../support/digestStore.ts'
import { freePort } from '../support/freePort.ts'
import { untilConnected } from '../support/indexerLeases.ts'
import { readStoredTransactions } from '../support/readStoredTransactions.ts'
import { scryProcesses } from '../support/scryProcesses.ts'
import { nodeHead, sendTransfers } from '../support/sendTransfers.ts'
import { strikeIndexers } from '../support/strikeIndexers.ts'
import { until } from '../support/until.ts'

// Acceptance (issue 12): a whole deployment as separate `scry start` processes on one
// PostgreSQL database: 2 API replicas (rate limits in Redis), 2 indexers of one chain (active
// and standby), 2 webhook workers. Transactions go on while the active indexer is SIGKILLed
// three times and cut off once, in random order at random moments. Then: each takeover
// within 10 s; the state equals a clean single-process run and the node; no batch committed
// twice (every checkpoint move, logged by a trigger, starts where the last one ended); every
// webhook delivered exactly once; both API replicas give identical answers.
const CHAIN_ID = 1
const BATCH_SIZE = 3
const TAKEOVER_MS = 10_000
const REDIS = process.env.SCRY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const SEED = Number(process.env.SCRY_DEPLOY_SEED ?? Math.floor(Math.random() * 2 ** 31))
const prng = createPrng(SEED)
const where = `seed ${SEED}`

let anvil: Anvil
let world: World
let store: Store
let database: string
let dropDatabase: () => Promise<void>
const children = scryProcesses()

beforeAll(async () => {
  console.log(`deployment: seed ${SEED} (SCRY_DEPLOY_SEED=${SEED} repeats it)`)
  anvil = await startAnvil({ chainId: CHAIN_ID })
  world = await buildWorld({ rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID, transfers: 600 })
  const db = await createTestDatabase('postgres')
  database = db.url
  dropDatabase = db.drop
  store = createStore({ url: db.url })
  await store.migrate()
  // Every checkpoint move, in commit order: a batch committed twice would move it from a
  // block to the same block or backwards (this world has no reorgs).
  await sql`create table test_checkpoint_moves (
    seq serial primary key, chain_id int, from_block bigint, to_block bigint)`.execute(store.db)
  await sql`create function test_log_checkpoint() returns trigger language plpgsql as $$
    begin
      insert into test_checkpoint_moves (chain_id, from_block, to_block) values (new.chain_id,
        case when tg_op = 'UPDATE' then old.block_number end, new.block_number);
      return new;
    end $$`.execute(store.db)
  await sql`create trigger test_log_checkpoint after insert or update on checkpoints
    for each row execute function test_log_checkpoint()`.execute(store.db)
}, 300_000)

afterAll(async () => {
  await children.stopAll()
  await store?.close()
  await dropDatabase?.()
  await anvil?.stop()
})

test('behavior: 2 API replicas, 2 indexers and 2 webhook workers survive indexer faults with exact state, single commits and exactly-once webhooks', async () => {
  const receiver = await createWebhookReceiver()
  const { key } = await createAccounts({ store }).createKey({ name: 'deployment' })
  const allow = ['--webhooks-allow-http', 'true', '--webhooks-allow-private-addresses', 'true']
  const start = (extra: string[]) =>
    children.start({
      chainId: CHAIN_ID,
      rpcUrl: anvil.rpcUrl,
      database,
      batchSize: BATCH_SIZE,
      extra,
    })
  const apis: string[] = []
  for (let i = 0; i < 2; i++) {
    const port = await freePort()
    start(['--role', 'api', '--port', String(port), '--redis', REDIS, ...allow])
    apis.push(`http://127.0.0.1:${port}`)
  }
  for (const api of apis) {
    await until({ what: `${api} ready`, where, read: async () => (await fetch(`${api}/ready`)).ok })
  }
  const watched = prng.sample(world.wallets.slice(0, 10), 6)
  for (const type of ['transactions', 'balances']) {
    await subscribe({
      api: { url: apis[0] ?? '', key },
      body: { webhook_url: receiver.url, type, chain_ids: [CHAIN_ID], addresses: watched },
    })
  }
  start(['--role', 'webhooks', ...allow])
  start(['--role', 'webhooks', ...allow])
  const indexer = () => start(['--role', 'indexer'])
  indexer()
  indexer()

  const faults = prng.sample(['kill', 'kill', 'kill', 'cut'] as const, 4)
  const { takeovers } = await strikeIndexers({
    store,
    chainId: CHAIN_ID,
    faults,
    prng,
    lastBlock: Number(world.endBlock),
    where,
    fateOf: children.fateOf,
    ms: TAKEOVER_MS * 3,
    after: async (fault) => {
      if (fault === 'kill') await untilConnected(store, indexer().pid ?? -1, where)
      await sendTransfers({ rpcUrl: anvil.rpcUrl, prng, count: prng.between(1, 4) })
    },
  })
  console.log(`deployment: ${where}, faults ${faults.join(',')}, takeovers ms ${takeovers}`)
  for (const [i, ms] of takeovers.entries()) {
    expect(ms, `${where}: takeover after ${faults[i]}`).toBeLessThan(TAKEOVER_MS)
  }

  const head = await until({
    what: 'the head indexed',
    where,
    read: async () => {
      const block = await nodeHead(anvil.rpcUrl)
      return (await store.getCheckpoint(CHAIN_ID))?.blockHash === block.hash && block.number
    },
  })

  // The state: the node's, and exactly a clean single-process run's.
  const { mismatches } = await compareWithNode({
    store,
    rpcUrl: anvil.rpcUrl,
    chainId: CHAIN_ID,
    block: head,
    wallets: world.wallets,
  })
  expect(mismatches, where).toEqual([])
  const clean = await digestCleanRun({
    rpcUrl: anvil.rpcUrl,
    chainId: CHAIN_ID,
    batchSize: BATCH_SIZE,
    block: Number(head),
  })
  expect(await digestStore(store), where).toEqual(clean)

  // No batch committed twice: each checkpoint move goes forward from where the last one ended.
  const moves = await store.db
    .selectFrom('test_checkpoint_moves' as never)
    .select(['from_block', 'to_block'] as never)
    .orderBy('seq' as never)
    .execute()
  const broken = (moves as { from_block: string | null; to_block: string }[]).filter(
    (m, i, all) =>
      i > 0 &&
      (Number(m.from_block) !== Number(all[i - 1]?.to_block) ||
        Number(m.to_block) <= Number(m.from_block)),
  )
  expect(moves.length, where).toBeGreaterThan(10)
  expect(broken, where).toEqual([])

  // Webhooks: every outbox row delivered, each exactly once, and the transactions events are
  // exactly the stored transactions of the watched wallets.
  await until({
    what: 'the outbox drained',
    where,
    ms: 60_000,
    read: async () => {
      const left = await store.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('status', '!=', 'delivered')
        .executeTakeFirstOrThrow()
      return Number(left.n) === 0
    },
  })
  const rows = await store.db.selectFrom('webhook_deliveries').select('id').execute()
  const got = receiver.received.map((r) => String(r.headers['scry-webhook-id']))
  expect(got.length, where).toBe(new Set(got).size)
  expect(new Set(got), where).toEqual(new Set(rows.map((r) => r.id)))
  const delivered = receiver.received
    .filter((r) => r.headers['scry-webhook-type'] === 'transactions')
    .flatMap(
      (r) => Object.values(r.body as Record<string, { address: string; hash: string }[]>)[0] ?? [],
    )
    .map((item) => `${item.address}|${item.hash}`)
    .sort()
  const stored = (await readStoredTransactions(store)).filter((tx) => tx.chain_id === CHAIN_ID)
  const expected = stored
    .flatMap((tx) =>
      [...new Set([tx.from_address, tx.to_address ?? tx.contract_address])]
        .filter((a): a is string => a !== null && watched.includes(a as never))
        .map((a) => `${a}|${tx.hash}`),
    )
    .sort()
  expect(expected.length, where).toBeGreaterThan(0)
  expect(delivered, where).toEqual(expected)

  // Both API replicas answer the same.
  const token = world.tokens.find((t) => t.kind === 'erc20')?.address
  const paths = [
    ...watched.flatMap((w) => [
      `/v1/evm/balances/${w}?chain_ids=${CHAIN_ID}`,
      `/v1/evm/activity/${w}?chain_ids=${CHAIN_ID}&limit=50`,
      `/v1/evm/transactions/${w}?chain_ids=${CHAIN_ID}&limit=50`,
    ]),
    `/v1/evm/token-holders/${CHAIN_ID}/${token}?limit=100`,
  ]
  for (const path of paths) {
    const [a, b] = await Promise.all(
      apis.map(async (api) => {
        const res = await fetch(`${api}${path}`, { headers: { 'x-scry-api-key': key } })
        // Answers carry their own request and response times; everything else must match.
        const { request_time, response_time, ...body } = (await res.json()) as Record<
          string,
          unknown
        >
        return { status: res.status, body }
      }),
    )
    expect(a?.status, `${where}: ${path}`).toBe(200)
    expect(b, `${where}: ${path}`).toEqual(a)
  }
  // An API replica indexes nothing, yet reports the chain's lag from the lock holder.
  const metrics = await (await fetch(`${apis[1]}/metrics`)).text()
  expect(metrics).toContain(`scry_indexer_lag_blocks{chain_id="${CHAIN_ID}"} 0`)
  await receiver.close()
}, 600_000)
