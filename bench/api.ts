/**
 * API benchmark: fills a fresh store with a generated chain (default 100,000 wallets,
 * 1,000,000 wallet-to-wallet transfers after an airdrop that gives a token to every wallet),
 * then drives the balances, activity, transactions, token-holders, token search (over
 * BENCH_SEARCH_TOKENS extra tokens) and approvals endpoints with autocannon
 * next to a bare route on the same server, and prints req/s, p50, p99 and the ratio to the
 * bare route. `npm run bench:api`.
 *
 * Env: BENCH_DB (sqlite | postgres, default sqlite), BENCH_WALLETS (100,000),
 * BENCH_TRANSFERS (1,000,000), BENCH_TOKENS (200), BENCH_BUSY (1,000 wallets that hold every
 * token and take part in half the transfers; the load picks among them), BENCH_TXS_PER_BLOCK
 * (100), BENCH_SEED (1), BENCH_SECONDS (10 per endpoint), BENCH_CONNECTIONS (10),
 * BENCH_WARMUP (2 seconds per endpoint, not counted), BENCH_DEEP_PAGES (150 holder pages
 * walked before the deep-page run), BENCH_DB_URL (load only: a store filled earlier with the
 * same BENCH_* sizes and seed), BENCH_KEEP=1 (keep the filled database and print its URL),
 * BENCH_SEARCH_TOKENS (100,000 tokens with made-up names for search), BENCH_APPROVALS (20 per
 * busy wallet), SCRY_TEST_PG_URL (the PostgreSQL server), BENCH_REPLICAS (PostgreSQL: after
 * the endpoints, balances, transactions and holders again on 1 and then on this many API
 * server processes on the same database, the connections spread over them; default 2, 1 skips).
 */
import { type ChildProcess, fork } from 'node:child_process'
import { cpus, loadavg, platform, release, totalmem } from 'node:os'
import { sql } from 'kysely'
import { dexDeployment } from '../src/prices/dexDeployments.ts'
import { createStore, type Store } from '../src/store/createStore.ts'
import type { DialectName } from '../src/store/dialect.ts'
import { createTestDatabase } from '../test/support/createTestStore.ts'
import type { BenchServerCommand, BenchServerMessage, QueryPlan } from './support/benchServer.ts'
import { createDatasetPlan, type DatasetPlan } from './support/createDatasetPlan.ts'
import { createRandom } from './support/createRandom.ts'
import { fillStore } from './support/fillStore.ts'
import { type LoadResult, runLoad } from './support/runLoad.ts'
import { seedPrices } from './support/seedPrices.ts'
import { seedSearchAndApprovals } from './support/seedSearchAndApprovals.ts'

const CHAIN_ID = 1
/** The indexer's default batch size: the fill commits the same batches. */
const BATCH_SIZE = 100
const HOLDERS_LIMIT = 500
/** Longer plans (PostgreSQL's BitmapOr of 100 index scans) print their head and tail. */
const PLAN_LINES = 30

function envInt(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw.replaceAll('_', ''))
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, not "${raw}".`)
  }
  return value
}

const settings = {
  dialect: (process.env.BENCH_DB ?? 'sqlite') as DialectName,
  wallets: envInt('BENCH_WALLETS', 100_000),
  transfers: envInt('BENCH_TRANSFERS', 1_000_000),
  tokens: envInt('BENCH_TOKENS', 200),
  busy: envInt('BENCH_BUSY', 1_000),
  txsPerBlock: envInt('BENCH_TXS_PER_BLOCK', 100),
  seed: envInt('BENCH_SEED', 1),
  seconds: envInt('BENCH_SECONDS', 10),
  connections: envInt('BENCH_CONNECTIONS', 10),
  warmup: envInt('BENCH_WARMUP', 2),
  deepPages: envInt('BENCH_DEEP_PAGES', 150),
  priced: envInt('BENCH_PRICED', 100),
  searchTokens: envInt('BENCH_SEARCH_TOKENS', 100_000),
  approvals: envInt('BENCH_APPROVALS', 20),
  keep: process.env.BENCH_KEEP === '1',
  reuseUrl: process.env.BENCH_DB_URL,
  replicas: envInt('BENCH_REPLICAS', 2),
}

const log = (line = '') => console.log(line)
const int = (n: number) => Math.round(n).toLocaleString('en-US')
const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`

async function main() {
  if (settings.dialect !== 'sqlite' && settings.dialect !== 'postgres') {
    throw new Error(`BENCH_DB must be sqlite or postgres, not "${settings.dialect}".`)
  }
  const cpu = cpus()
  log(
    `Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${mib(totalmem())}, ${platform()} ${release()}, node ${process.version}`,
  )
  log(
    `Load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  const plan = createDatasetPlan({
    seed: settings.seed,
    wallets: settings.wallets,
    tokens: settings.tokens,
    busy: Math.min(settings.busy, settings.wallets),
  })

  const database = settings.reuseUrl
    ? { url: settings.reuseUrl, drop: async () => {} }
    : await createTestDatabase(settings.dialect)
  let server: BenchServer | undefined
  try {
    if (settings.reuseUrl) log(`Reusing the store at ${redact(settings.reuseUrl)}`)
    else await fill({ url: database.url, plan })
    await withStore(database.url, (store) =>
      seedPrices({
        store,
        plan,
        chainId: CHAIN_ID,
        usdc: dexDeployment(CHAIN_ID).usdc[0]!,
        count: Math.min(settings.priced, settings.tokens),
      }),
    )
    log(
      `Priced ${int(Math.min(settings.priced, settings.tokens))} tokens (pools, prices, 48 hourly points)`,
    )
    const seeded = performance.now()
    const { queries } = await withStore(database.url, async (store) => {
      const out = await seedSearchAndApprovals({
        store,
        plan,
        chainId: CHAIN_ID,
        searchTokens: settings.searchTokens,
        perWallet: settings.approvals,
      })
      if (store.dialect === 'postgres') await sql`analyze`.execute(store.db)
      return out
    })
    log(
      `Added ${int(settings.searchTokens)} tokens for search and ${settings.approvals} approvals per busy wallet in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    )
    server = await startBenchServer(database.url)
    const { results, endpoints } = await load({ server, plan, queries })
    printResults(results)
    if (settings.dialect === 'postgres' && settings.replicas > 1) {
      await compareReplicas({ first: server, dbUrl: database.url, endpoints })
    }
    const failed = results.find((r) => r.failures > 0)
    if (failed) {
      log()
      log(`${failed.name}: ${failed.failures} failed requests. First failure:`)
      log(JSON.stringify(failed.firstFailure ?? 'connection error or timeout (no response)'))
      process.exitCode = 1
    }
  } finally {
    await server?.close()
    if (settings.keep || settings.reuseUrl) {
      if (!settings.reuseUrl) log(`Kept the store: BENCH_DB_URL=${redact(database.url)}`)
    } else await database.drop()
  }
  log(
    `Load average at end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  log(`Peak RSS of the bench process: ${mib(process.resourceUsage().maxRSS * 1024)}`)
}

async function fill({ url, plan }: { url: string; plan: DatasetPlan }) {
  log(
    `Filling ${settings.dialect}: ${int(settings.wallets)} wallets, ${int(settings.tokens)} tokens, ` +
      `${int(plan.totalSlots)} holdings (airdropped), ${int(settings.transfers)} transfers after the airdrop, ` +
      `${settings.txsPerBlock} txs/block, batches of ${BATCH_SIZE} blocks, seed ${settings.seed}`,
  )
  const store = createStore({ url })
  try {
    await store.migrate()
    const { counts, seconds, lastBlock } = await fillStore({
      store,
      dataset: {
        plan,
        chainId: CHAIN_ID,
        transfers: settings.transfers,
        txsPerBlock: settings.txsPerBlock,
        batchSize: BATCH_SIZE,
      },
      onProgress: ({ counts, block, seconds }) =>
        log(
          `  ${seconds.toFixed(0)} s: block ${int(block)}, ${int(counts.transfers)} transfers, ${int(counts.activity)} activity rows`,
        ),
    })
    const rows = Object.values(counts).reduce((a, b) => a + b, 0)
    log(
      `Filled in ${seconds.toFixed(1)} s (${int(rows / seconds)} rows/s), blocks 0..${int(lastBlock)}:`,
    )
    for (const [table, n] of Object.entries(counts))
      log(`  ${table.padEnd(22)} ${int(n).padStart(11)}`)
    log(`  ${'total'.padEnd(22)} ${int(rows).padStart(11)}`)
    if (store.dialect === 'postgres') {
      // A bulk load leaves no statistics; the planner needs them as autovacuum would give them.
      const started = performance.now()
      await sql`analyze`.execute(store.db)
      log(`ANALYZE in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    }
  } finally {
    await store.close()
  }
}

/**
 * Not in the schema: what bench/README.md proposes. A wallet's balances sorted by (chain,
 * token) with the balance in the index: without it SQLite (no statistics) reads the wallet's
 * rows through token_balances_holders, i.e. every holding on the chain.
 */

type BenchServer = {
  url: string
  key: string
  plans(): Promise<QueryPlan[]>
  capture(): void
  close(): Promise<void>
}

async function startBenchServer(dbUrl: string): Promise<BenchServer> {
  const child: ChildProcess = fork(new URL('./support/benchServer.ts', import.meta.url), [], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    env: { ...process.env, SCRY_BENCH_DB_URL: dbUrl, SCRY_BENCH_CHAIN_ID: String(CHAIN_ID) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const next = <T extends BenchServerMessage['type']>(type: T) =>
    new Promise<Extract<BenchServerMessage, { type: T }>>((resolve, reject) => {
      const onMessage = (message: BenchServerMessage) => {
        if (message.type !== type) return
        child.off('message', onMessage)
        child.off('exit', onExit)
        resolve(message as Extract<BenchServerMessage, { type: T }>)
      }
      const onExit = (code: number | null) => reject(new Error(`bench server exited (${code})`))
      child.on('message', onMessage)
      child.once('exit', onExit)
    })
  const send = (command: BenchServerCommand) => child.send(command)
  const ready = await next('ready')
  return {
    url: ready.url,
    key: ready.key,
    capture: () => send({ type: 'capture' }),
    async plans() {
      const answer = next('plans')
      send({ type: 'explain' })
      return (await answer).plans
    },
    async close() {
      if (child.exitCode !== null) return
      const closed = next('closed').catch(() => undefined)
      send({ type: 'close' })
      await Promise.race([closed, new Promise((r) => setTimeout(r, 10_000))])
      if (child.exitCode === null) child.kill()
    },
  }
}

async function load({
  server,
  plan,
  queries,
}: {
  server: BenchServer
  plan: DatasetPlan
  queries: readonly string[]
}) {
  const random = createRandom(settings.seed + 1)
  const busy = plan.wallets.slice(0, Math.max(1, plan.busy))
  const wallet = () => busy[random.int(busy.length)] as string
  const bigToken = plan.tokens[0] as string
  const holders = `/v1/evm/token-holders/${CHAIN_ID}/${bigToken}?limit=${HOLDERS_LIMIT}`

  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { 'x-scry-api-key': server.key } })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text}`)
    return JSON.parse(text)
  }

  // The deep page: follow next_offset, then bench that cursor.
  const walkStarted = performance.now()
  let deep = holders
  let walked = 0
  let page = await get(holders)
  while (walked < settings.deepPages && page.next_offset) {
    deep = `${holders}&offset=${encodeURIComponent(page.next_offset)}`
    page = await get(deep)
    walked++
  }
  const walkSeconds = (performance.now() - walkStarted) / 1000
  log()
  log(
    `Deep holders page: followed next_offset ${walked} times (${int(walked * HOLDERS_LIMIT)} holders deep) in ${walkSeconds.toFixed(1)} s, ${((walkSeconds * 1000) / (walked + 1)).toFixed(1)} ms per page`,
  )

  const endpoints: Endpoint[] = [
    { name: 'bare', path: () => '/bench/bare' },
    { name: 'balances', path: () => `/v1/evm/balances/${wallet()}?chain_ids=${CHAIN_ID}` },
    {
      name: 'balances +pools +history',
      path: () =>
        `/v1/evm/balances/${wallet()}?chain_ids=${CHAIN_ID}&metadata=pools&historical_prices=1,24`,
    },
    {
      name: 'activity',
      path: () => `/v1/evm/activity/${wallet()}?chain_ids=${CHAIN_ID}&limit=100`,
    },
    {
      name: 'transactions',
      path: () => `/v1/evm/transactions/${wallet()}?chain_ids=${CHAIN_ID}&limit=100`,
    },
    { name: 'holders', path: () => holders },
    { name: 'holders deep', path: () => deep },
    {
      name: 'search',
      path: () =>
        `/v1/evm/search/tokens?query=${encodeURIComponent(queries[random.int(queries.length)] ?? 'token')}`,
    },
    { name: 'approvals', path: () => `/v1/evm/approvals/${wallet()}?chain_ids=${CHAIN_ID}` },
  ]

  // One request per endpoint with the queries captured and explained on the server.
  server.capture()
  const shapes: string[] = []
  for (const e of endpoints.slice(1)) {
    const body = await get(e.path())
    const list = Array.isArray(body)
      ? body
      : (body.balances ?? body.activity ?? body.transactions ?? body.holders ?? body.approvals)
    shapes.push(`${e.name}: ${Array.isArray(list) ? list.length : '?'} rows`)
  }
  const plans = await server.plans()
  log(`Sample responses: ${shapes.join(', ')}`)
  log()
  log('Query plans of the benched requests (one request each, mean of 20 runs on the server):')
  for (const p of plans) {
    log()
    log(`  ${p.ms.toFixed(2)} ms  ${shortenSql(p.sql)}`)
    const lines =
      p.plan.length > PLAN_LINES
        ? [
            ...p.plan.slice(0, PLAN_LINES - 6),
            `  … ${p.plan.length - PLAN_LINES + 2} more lines …`,
            ...p.plan.slice(-4),
          ]
        : p.plan
    for (const line of lines) log(`      ${cut(line, 160)}`)
  }

  log()
  log(
    `Load: autocannon, ${settings.connections} connections, ${settings.warmup} s warm-up + ${settings.seconds} s per endpoint, random busy wallet per request (${busy.length} wallets)`,
  )
  const results: LoadResult[] = []
  for (const e of endpoints) {
    const run = (seconds: number) =>
      runLoad({
        name: e.name,
        url: server.url,
        key: server.key,
        path: e.path,
        seconds,
        connections: settings.connections,
      })
    if (settings.warmup > 0) await run(settings.warmup)
    const result = await run(settings.seconds)
    log(
      `  ${e.name}: ${int(result.requestsPerSecond)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.failures} failed`,
    )
    results.push(result)
  }
  return { results, endpoints }
}

type Endpoint = { name: string; path: () => string }

/**
 * API replicas: the same endpoints on one server process, then on `settings.replicas`
 * processes on the same database with the same total connections spread over them.
 */
async function compareReplicas({
  first,
  dbUrl,
  endpoints,
}: {
  first: BenchServer
  dbUrl: string
  endpoints: readonly Endpoint[]
}) {
  const servers = [first]
  try {
    while (servers.length < settings.replicas) servers.push(await startBenchServer(dbUrl))
    log()
    log(
      `API replicas: 1 vs ${servers.length} server processes on one database, ${settings.connections} connections in all, ${settings.seconds} s each`,
    )
    log(
      `${'endpoint'.padEnd(14)}${'1 req/s'.padStart(10)}${`${servers.length} req/s`.padStart(10)}${'ratio'.padStart(8)}`,
    )
    const picked = endpoints.filter((e) => ['balances', 'transactions', 'holders'].includes(e.name))
    for (const e of picked) {
      const over = async (list: BenchServer[]) => {
        const share = Math.max(1, Math.floor(settings.connections / list.length))
        const runs = await Promise.all(
          list.map((s) =>
            runLoad({
              name: e.name,
              url: s.url,
              key: s.key,
              path: e.path,
              seconds: settings.seconds,
              connections: share,
            }),
          ),
        )
        return runs.reduce((sum, r) => sum + r.requestsPerSecond, 0)
      }
      if (settings.warmup > 0) await over(servers)
      const one = await over([first])
      const many = await over(servers)
      log(
        `${e.name.padEnd(14)}${int(one).padStart(10)}${int(many).padStart(10)}${(many / one).toFixed(2).padStart(8)}`,
      )
    }
  } finally {
    for (const s of servers.slice(1)) await s.close()
  }
}

function printResults(results: LoadResult[]) {
  const bare = results.find((r) => r.name === 'bare')?.requestsPerSecond ?? Number.NaN
  log()
  log(
    `${'endpoint'.padEnd(14)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'ratio'.padStart(8)}${'non-2xx'.padStart(9)}`,
  )
  for (const r of results) {
    log(
      `${r.name.padEnd(14)}${int(r.requestsPerSecond).padStart(9)}${String(r.p50).padStart(9)}${String(r.p99).padStart(9)}${(r.requestsPerSecond / bare).toFixed(3).padStart(8)}${String(r.failures).padStart(9)}`,
    )
  }
}

/** Long IN lists of tuples as their first tuple and a count. */
function shortenSql(text: string): string {
  return text.replace(
    /(\((?:\?|\$\d+)(?:, (?:\?|\$\d+))*\))(?:, \((?:\?|\$\d+)(?:, (?:\?|\$\d+))*\))+/g,
    (match, first: string) => {
      const count = match.split('), (').length
      return `${first}, … (${count} tuples)`
    },
  )
}

function cut(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** A database URL without its password. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@')
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})

async function withStore<T>(url: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = createStore({ url })
  try {
    await store.migrate()
    return await work(store)
  } finally {
    await store.close()
  }
}
