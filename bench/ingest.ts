/**
 * Ingestion benchmark: indexes a generated anvil chain into SQLite and PostgreSQL and compares
 * the speed with the raw ceiling (the same blocks, receipts and traces fetched from the same
 * node, with the same windows and parallelism, without processing). `npm run bench:ingest`.
 *
 * Env: BENCH_TRANSFERS (default 2,000: anvil's tracing would make 20,000 take 12–15 minutes
 * on 2 cores), BENCH_TXS_PER_BLOCK (default: buildWorld's), BENCH_BATCH_SIZE, BENCH_BATCH_TRANSACTIONS,
 * BENCH_FETCH_CONCURRENCY, BENCH_RPC_BATCH_SIZE (default: the chain defaults), BENCH_TRACES
 * (auto|debug|parity|off, default auto; anvil's trace_block is far faster than its callTracer),
 * BENCH_LATENCY_MS (a delay added to every HTTP request to the node, as a remote node has),
 * BENCH_STAGED=0
 * skips the staged runs (the indexer's steps called here, each timed), BENCH_OWN_PROCESS=0 the
 * run of `scry start` in its own process (time and its own peak RSS; it runs the compiled
 * dist/ when `npm run build` is newer than every source, else the sources through tsx),
 * BENCH_SCRY_NODE_ARGS (node flags for that process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`),
 * SCRY_TEST_PG_URL picks the PostgreSQL server. On Linux each run also prints the CPU time
 * Scry, anvil and PostgreSQL used during it (`sampleCpu`).
 */
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { availableParallelism, cpus, platform, release } from 'node:os'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import { isBuildFresh } from '../bin/isBuildFresh.js'
import { CHAIN_DEFAULTS } from '../src/config/fields.ts'
import type { ChainConfig } from '../src/config/types.ts'
import { DEFI_PROBE_CALLS } from '../src/defi/probeDefiTokens.ts'
import { probeNewTokens } from '../src/defi/probeNewTokens.ts'
import { buildWorld } from '../src/dev/buildWorld.ts'
import { type Anvil, startAnvil } from '../src/dev/startAnvil.ts'
import { deriveHistory } from '../src/evm/derive/deriveHistory.ts'
import { deriveState } from '../src/evm/derive/deriveState.ts'
import type { ChainBlock } from '../src/evm/fetch/chainBlock.ts'
import { detectCapabilities, type FetchCapabilities } from '../src/evm/fetch/detectCapabilities.ts'
import { fetchBlocks } from '../src/evm/fetch/fetchBlocks.ts'
import { readBatchState } from '../src/evm/read/readBatchState.ts'
import { createRpcClient, type RpcCall, type RpcClient } from '../src/evm/rpc/createRpcClient.ts'
import { createChainIndexer } from '../src/indexer/createChainIndexer.ts'
import { BaseError } from '../src/internal/errors.ts'
import { silentLogger } from '../src/internal/logger.ts'
import { dexDeployment } from '../src/prices/dexDeployments.ts'
import { createStore, type Store } from '../src/store/createStore.ts'
import type { DialectName } from '../src/store/dialect.ts'
import { createFaultProxy } from '../test/support/createFaultProxy.ts'
import { createTestDatabase, TEST_PG_URL } from '../test/support/createTestStore.ts'
import {
  describePostgresTables,
  formatDisk,
  measureDisk,
  packPostgresTables,
  readPostgresSetting,
} from './support/measureDisk.ts'
import { type CpuSample, cpuBetween, sampleCpu } from './support/sampleCpu.ts'

const CHAIN_ID = 1
/** The RPC client's own default, which the indexer's client uses too. */
const RPC_CONCURRENCY = 8
/**
 * Anvil traces one block at a time (callTracer at several ms per transaction), so a JSON-RPC
 * batch of traces queued behind the other in-flight batches outlasts the client's default
 * 15 s timeout; a long one keeps this a measure of throughput rather than of retries.
 */
const RPC_TIMEOUT_MS = 600_000

type Row = {
  name: string
  seconds: number
  blocks: number
  transactions: number
  transfers: number | undefined
  /** CPU seconds each party used during the run (`sampleCpu`). */
  cpu?: CpuSample | undefined
}

type Stages = {
  fetch: number
  fetchWait: number
  deriveHistory: number
  readBatchState: number
  deriveState: number
  applyBatch: number
  total: number
}

function envInt(name: string, fallback: number | undefined): number | undefined {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value <= 0) {
    throw new BaseError(`${name} must be a positive integer, not "${raw}".`)
  }
  return value
}

/** `rpc` with a count of the JSON-RPC calls made through it (each batch item counts). */
function countCalls(rpc: RpcClient): { rpc: RpcClient; calls: number } {
  const counter = {
    calls: 0,
    rpc: {
      request<T>(call: RpcCall, options?: { signal?: AbortSignal }) {
        counter.calls++
        return rpc.request<T>(call, options)
      },
      batch<T>(calls: readonly RpcCall[], options?: { signal?: AbortSignal }) {
        counter.calls += calls.length
        return rpc.batch<T>(calls, options)
      },
      close: () => rpc.close(),
    } satisfies RpcClient,
  }
  return counter
}

function rpcFor(chain: ChainConfig): RpcClient {
  return createRpcClient({
    urls: chain.rpc,
    batchSize: chain.rpcBatchSize,
    concurrency: RPC_CONCURRENCY,
    timeoutMs: RPC_TIMEOUT_MS,
  })
}

/** Consecutive windows of `size` blocks covering `from..to`. */
function windows({ from, to, size }: { from: number; to: number; size: number }) {
  const out: { from: number; to: number }[] = []
  for (let n = from; n <= to; n += size) out.push({ from: n, to: Math.min(n + size - 1, to) })
  return out
}

const seconds = (startedMs: number) => (performance.now() - startedMs) / 1000

/**
 * The ceiling: every block, its receipts and its traces fetched in the indexer's windows with
 * `fetchConcurrency` windows in flight, answers dropped after counting transactions.
 */
async function fetchRaw({
  chain,
  caps,
  toBlock,
}: {
  chain: ChainConfig
  caps: FetchCapabilities
  toBlock: number
}): Promise<{ seconds: number; transactions: number; cpu: CpuSample | undefined }> {
  const cpuBefore = await sampleCpu()
  const rpc = rpcFor(chain)
  const queue = windows({ from: chain.startBlock, to: toBlock, size: chain.batchSize })
  let transactions = 0
  const started = performance.now()
  const worker = async () => {
    for (let w = queue.shift(); w; w = queue.shift()) {
      // The indexer's own call pattern (fetchBlocks): blocks and receipts batched, each
      // block's traces as its own request.
      const calls: RpcCall[] = []
      const traceCalls: RpcCall[] = []
      for (let n = w.from; n <= w.to; n++) {
        const tag = `0x${n.toString(16)}`
        calls.push({ method: 'eth_getBlockByNumber', params: [tag, true] })
        if (caps.receipts === 'block') calls.push({ method: 'eth_getBlockReceipts', params: [tag] })
        if (caps.traces === 'debug') {
          traceCalls.push({
            method: 'debug_traceBlockByNumber',
            params: [tag, { tracer: 'callTracer' }],
          })
        } else if (caps.traces === 'parity') {
          traceCalls.push({ method: 'trace_block', params: [tag] })
        }
      }
      const [results] = await Promise.all([
        rpc.batch<{ transactions?: unknown[] }>(calls),
        Promise.all(traceCalls.map((call) => rpc.request(call))),
      ])
      for (const [i, r] of results.entries()) {
        if (!r.ok) throw new BaseError(`The node failed ${calls[i]?.method}.`, { cause: r.error })
        if (calls[i]?.method === 'eth_getBlockByNumber') {
          transactions += r.result.transactions?.length ?? 0
        }
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: chain.fetchConcurrency }, worker))
  } finally {
    rpc.close()
  }
  const took = seconds(started)
  return { seconds: took, transactions, cpu: cpuBetween(cpuBefore, await sampleCpu()) }
}

/**
 * `scry start` in its own process into a fresh SQLite file (every role, as SQLite runs it:
 * the indexer, an idle API and webhook worker), timed until its checkpoint reaches `toBlock`;
 * its peak RSS (`VmHWM` from /proc, Linux only) is that process's alone, without this one's
 * world, raw fetch and in-process runs.
 */
async function runOwnProcess({ chain, toBlock }: { chain: ChainConfig; toBlock: number }): Promise<{
  seconds: number
  peakRssMiB: number | undefined
  compiled: boolean
  cpu: CpuSample | undefined
}> {
  const compiled = isBuildFresh(fileURLToPath(new URL('..', import.meta.url)))
  const { url, drop } = await createTestDatabase('sqlite')
  const id = chain.chainId
  const started = performance.now()
  const nodeArgs = process.env.BENCH_SCRY_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      fileURLToPath(new URL('../bin/scry.js', import.meta.url)),
      'start',
      '--port',
      '0',
      '--rpc',
      `${id}=${chain.rpc[0]}`,
      '--database',
      url,
      '--log-level',
      'silent',
      '--traces',
      `${id}=${chain.traces}`,
      '--batch-size',
      `${id}=${chain.batchSize}`,
      '--batch-transactions',
      `${id}=${chain.batchTransactions}`,
      '--fetch-concurrency',
      `${id}=${chain.fetchConcurrency}`,
      '--rpc-batch-size',
      `${id}=${chain.rpcBatchSize}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const cpuBefore = await sampleCpu(child.pid)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const store = createStore({ url })
  try {
    for (;;) {
      if (child.exitCode !== null) throw new BaseError('scry start exited before the end')
      const cp = await store.getCheckpoint(id).catch(() => undefined)
      if (cp && cp.blockNumber >= toBlock) break
      await new Promise((r) => setTimeout(r, 50))
    }
    const took = seconds(started)
    const cpu = cpuBetween(cpuBefore, await sampleCpu(child.pid))
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '')
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status)?.[1]
    return {
      seconds: took,
      peakRssMiB: hwm === undefined ? undefined : Number(hwm) / 1024,
      compiled,
      cpu,
    }
  } finally {
    child.kill('SIGTERM')
    await exited
    await store.close()
    await drop()
  }
}

async function openStore(dialect: DialectName) {
  const { url, drop } = await createTestDatabase(dialect)
  const store = createStore({ url })
  try {
    await store.migrate()
  } catch (error) {
    await store.close().catch(() => {})
    await drop().catch(() => {})
    throw error
  }
  return {
    store,
    async close() {
      await store.close()
      await drop()
    },
  }
}

async function countRows(store: Store, table: 'transfers' | 'transactions'): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(
    table,
  )}`.execute(store.db)
  return Number(rows[0]?.n ?? 0)
}

/** The real indexer, from block 0 until its checkpoint reaches `toBlock`. */
async function runIndexer({
  chain,
  store,
  toBlock,
}: {
  chain: ChainConfig
  store: Store
  toBlock: number
}): Promise<number> {
  const rpc = rpcFor(chain)
  const indexer = createChainIndexer({ chain, store, logger: silentLogger(), rpc })
  const controller = new AbortController()
  let failure: unknown
  const started = performance.now()
  const done = indexer.run(controller.signal).catch((error: unknown) => {
    failure = error
  })
  try {
    for (;;) {
      if (failure) throw failure
      const cp = await store.getCheckpoint(chain.chainId)
      if (cp && cp.blockNumber >= toBlock) return seconds(started)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  } finally {
    controller.abort()
    await done
    rpc.close()
  }
}

/**
 * The indexer's backfill steps (`prepareBatch`, `runPipeline`) run one after another, each
 * timed: windows are fetched ahead exactly as the indexer does, so `fetchWait` is the time the
 * loop waited for a window and `fetch` the windows' own (overlapping) durations.
 */
async function runStaged({
  chain,
  store,
  caps,
  toBlock,
}: {
  chain: ChainConfig
  store: Store
  caps: FetchCapabilities
  toBlock: number
}): Promise<Stages & { calls: { probes: number; noProbes: number } }> {
  const rpc = rpcFor(chain)
  const counted = { probes: countCalls(rpc), noProbes: countCalls(rpc) }
  const stages: Stages = {
    fetch: 0,
    fetchWait: 0,
    deriveHistory: 0,
    readBatchState: 0,
    deriveState: 0,
    applyBatch: 0,
    total: 0,
  }
  const pending = windows({ from: chain.startBlock, to: toBlock, size: chain.batchSize })
  const fetchWindow = (w: { from: number; to: number }): Promise<ChainBlock[]> => {
    const t = performance.now()
    return fetchBlocks({ rpc, from: BigInt(w.from), to: BigInt(w.to), caps }).then((blocks) => {
      stages.fetch += seconds(t)
      return blocks
    })
  }
  const inflight: Promise<ChainBlock[]>[] = []
  let untimed = 0
  const started = performance.now()
  try {
    for (;;) {
      while (inflight.length < chain.fetchConcurrency && pending.length > 0) {
        const p = fetchWindow(pending.shift()!)
        p.catch(() => {}) // awaited below in order
        inflight.push(p)
      }
      const next = inflight.shift()
      if (!next) break
      let t = performance.now()
      const blocks = await next
      stages.fetchWait += seconds(t)
      const first = blocks[0]!
      const last = blocks[blocks.length - 1]!
      t = performance.now()
      const { rows, touched } = deriveHistory({ chainId: chain.chainId, blocks })
      stages.deriveHistory += seconds(t)
      const read = async (defiProbes: boolean) => {
        const rpc = defiProbes ? counted.probes.rpc : counted.noProbes.rpc
        const read = await readBatchState({
          rpc,
          state: store,
          chainId: chain.chainId,
          fromBlock: first.number,
          toBlock: last.number,
          touched,
          newTokenCalls: defiProbes ? DEFI_PROBE_CALLS : [],
        })
        const defiTokens = defiProbes
          ? await probeNewTokens({
              rpc,
              chainId: chain.chainId,
              blockNumber: last.number,
              newTokens: read.reads.newTokens,
            })
          : []
        return { ...read, defiTokens }
      }
      t = performance.now()
      const { loaded, reads, defiTokens } = await read(true)
      stages.readBatchState += seconds(t)
      // Again without the DeFi token probes, only to count the node calls they save.
      t = performance.now()
      await read(false)
      untimed += seconds(t)
      t = performance.now()
      const state = deriveState({
        chainId: chain.chainId,
        fromBlock: Number(first.number),
        toBlock: Number(last.number),
        touched,
        loaded,
        reads,
      })
      state.push(...defiTokens)
      stages.deriveState += seconds(t)
      t = performance.now()
      await store.applyBatch({
        chainId: chain.chainId,
        fromBlock: Number(first.number),
        toBlock: Number(last.number),
        toHash: last.hash,
        keepUndo: Number(last.number) > toBlock - chain.finalityDepth,
        ...rows,
        state,
      })
      stages.applyBatch += seconds(t)
    }
    // The loop's time without the probe-less reads it made only to be counted.
    stages.total = seconds(started) - untimed
    return { ...stages, calls: { probes: counted.probes.calls, noProbes: counted.noProbes.calls } }
  } finally {
    rpc.close()
  }
}

function printTable({ rows, raw }: { rows: Row[]; raw: Row }) {
  const fmt = (n: number, digits = 0) =>
    n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
  const header = ['', 'seconds', 'blocks/s', 'txs/s', 'transfers/s', 'ratio']
  const lines = rows.map((r) => [
    r.name,
    fmt(r.seconds, 2),
    fmt(r.blocks / r.seconds, 1),
    fmt(r.transactions / r.seconds),
    r.transfers === undefined ? '-' : fmt(r.transfers / r.seconds),
    fmt(r.blocks / r.seconds / (raw.blocks / raw.seconds), 2),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  console.log(line(header))
  for (const l of lines) console.log(line(l))
}

/**
 * CPU seconds each party used during each run, and how busy Scry's process kept a core: near
 * 100 % means the run waited on Scry's own thread (its JavaScript, SQLite and garbage
 * collection), not on the node or the database. `cpu floor` is every party's CPU seconds over
 * the machine's cores: no run doing that work on these cores can be faster, however well it
 * overlaps, and `ratio cap` is the ratio such a run would reach (the raw fetch's seconds over
 * the floor). Where the node shares the machine, a ratio above the cap needs less CPU, not
 * more overlap.
 */
function printCpu(rows: Row[], raw: Row) {
  if (!rows.some((r) => r.cpu)) return
  const cores = availableParallelism()
  console.log('')
  console.log(`CPU seconds during each run (user + system, from /proc; ${cores} cores):`)
  const header = ['', 'seconds', 'scry', 'scry busy', 'anvil', 'postgres', 'cpu floor', 'ratio cap']
  const lines = rows.map((r) => {
    const floor = r.cpu ? (r.cpu.scry + r.cpu.anvil + r.cpu.postgres) / cores : undefined
    return [
      r.name,
      r.seconds.toFixed(2),
      r.cpu ? r.cpu.scry.toFixed(2) : '-',
      r.cpu ? `${((100 * r.cpu.scry) / r.seconds).toFixed(0)} %` : '-',
      r.cpu ? r.cpu.anvil.toFixed(2) : '-',
      r.cpu ? r.cpu.postgres.toFixed(2) : '-',
      floor === undefined ? '-' : floor.toFixed(2),
      floor === undefined || r === raw ? '-' : (raw.seconds / floor).toFixed(2),
    ]
  })
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  for (const l of [header, ...lines])
    console.log(
      l.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '),
    )
}

function printStages(all: { name: string; stages: Stages }[]) {
  const keys = [
    'fetch',
    'fetchWait',
    'deriveHistory',
    'readBatchState',
    'deriveState',
    'applyBatch',
    'total',
  ] as const
  const widths = [Math.max(...all.map((a) => a.name.length)), ...keys.map((k) => k.length + 1)]
  console.log(
    ['', ...keys]
      .map((k, i) => (i === 0 ? k.padEnd(widths[0]!) : k.padStart(widths[i]!)))
      .join(' '),
  )
  for (const { name, stages } of all) {
    const cells = keys.map((k, i) => `${stages[k].toFixed(2)}`.padStart(widths[i + 1]!))
    console.log([name.padEnd(widths[0]!), ...cells].join(' '))
  }
}

async function main(): Promise<void> {
  const transfers = envInt('BENCH_TRANSFERS', 2_000)!
  const txsPerBlock = envInt('BENCH_TXS_PER_BLOCK', undefined)
  const wallets = envInt('BENCH_WALLETS', 200)!
  const staged = process.env.BENCH_STAGED !== '0'
  const cpu = cpus()
  console.log(
    `Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown cpu'}, ${platform()} ${release()}, node ${process.version}`,
  )

  try {
    const anvil: Anvil = await startAnvil({ chainId: CHAIN_ID })
    cleanups.push(() => anvil.stop())

    console.log(
      `Building world: ${wallets} wallets, ${transfers} transfers, ${txsPerBlock ?? 'default'} txs/block …`,
    )
    const world = await buildWorld({
      rpcUrl: anvil.rpcUrl,
      chainId: CHAIN_ID,
      wallets,
      transfers,
      ...(txsPerBlock === undefined ? {} : { txsPerBlock }),
    })
    const toBlock = Number(world.endBlock)
    // A node farther away: every request to it waits this long first (the world is built
    // straight against anvil).
    const latencyMs = envInt('BENCH_LATENCY_MS', undefined)
    let rpcUrl = anvil.rpcUrl
    if (latencyMs !== undefined) {
      const proxy = await createFaultProxy({
        target: anvil.rpcUrl,
        failRate: 0,
        rateLimitRate: 0,
        delayRate: 1,
        delayMs: latencyMs,
      })
      cleanups.push(() => proxy.close())
      rpcUrl = proxy.url
      console.log(`Node latency: ${latencyMs} ms added to every HTTP request (a delaying proxy)`)
    }
    const chain: ChainConfig = {
      chainId: CHAIN_ID,
      name: 'bench',
      rpc: [rpcUrl],
      ...CHAIN_DEFAULTS,
      ...dexDeployment(CHAIN_ID),
      startBlock: 0,
      batchSize: envInt('BENCH_BATCH_SIZE', CHAIN_DEFAULTS.batchSize)!,
      batchTransactions: envInt('BENCH_BATCH_TRANSACTIONS', CHAIN_DEFAULTS.batchTransactions)!,
      fetchConcurrency: envInt('BENCH_FETCH_CONCURRENCY', CHAIN_DEFAULTS.fetchConcurrency)!,
      rpcBatchSize: envInt('BENCH_RPC_BATCH_SIZE', CHAIN_DEFAULTS.rpcBatchSize)!,
      traces: tracesMode(process.env.BENCH_TRACES),
      expectedChainId: CHAIN_ID,
    }
    const blocks = toBlock - chain.startBlock + 1
    console.log(
      `World: blocks ${chain.startBlock}..${toBlock} (${blocks}), ${world.stats.transactions} transactions sent, built in ${(world.stats.ms / 1000).toFixed(1)} s`,
    )
    console.log(
      `Parameters: batchSize ${chain.batchSize}, batchTransactions ${chain.batchTransactions}, fetchConcurrency ${chain.fetchConcurrency}, rpcBatchSize ${chain.rpcBatchSize}, rpc concurrency ${RPC_CONCURRENCY}, rpc timeout ${RPC_TIMEOUT_MS / 1000} s`,
    )

    const probe = rpcFor(chain)
    const caps = await detectCapabilities({
      rpc: probe,
      blockNumber: BigInt(toBlock),
      traces: chain.traces,
    }).finally(() => probe.close())
    console.log(`Node capabilities: receipts ${caps.receipts}, traces ${caps.traces}`)

    const rawRuns = [
      await fetchRaw({ chain, caps, toBlock }),
      await fetchRaw({ chain, caps, toBlock }),
    ]
    const rawBest = rawRuns.reduce((a, b) => (b.seconds < a.seconds ? b : a))
    console.log(
      `Raw fetch: ${rawRuns.map((r) => `${r.seconds.toFixed(2)} s`).join(', ')} (kept the faster)`,
    )
    const transactions = rawBest.transactions

    const rows: Row[] = []
    const stageRows: { name: string; stages: Stages }[] = []
    const disk = new Map<string, Map<string, number>>()
    let undoSpan: { from: number; to: number } | undefined
    let postgresTables: string[] = []
    let autovacuum: string | undefined
    for (const dialect of ['sqlite', 'postgres'] as const) {
      let opened: Awaited<ReturnType<typeof openStore>>
      try {
        opened = await openStore(dialect)
      } catch (error) {
        if (dialect !== 'postgres') throw error
        const reason = error instanceof Error ? error.message.split('\n')[0] : String(error)
        console.log(`PostgreSQL skipped: ${new URL(TEST_PG_URL).host} unreachable (${reason})`)
        continue
      }
      const close = opened.close
      cleanups.push(close)
      const cpuBefore = await sampleCpu()
      const secs = await runIndexer({ chain, store: opened.store, toBlock })
      const cpu = cpuBetween(cpuBefore, await sampleCpu())
      const indexedTransfers = await countRows(opened.store, 'transfers')
      const indexedTxs = await countRows(opened.store, 'transactions')
      if (indexedTxs !== transactions) {
        console.log(`Note: ${dialect} has ${indexedTxs} transactions, the node ${transactions}`)
      }
      rows.push({
        name: `index ${dialect}`,
        seconds: secs,
        blocks,
        transactions: indexedTxs,
        transfers: indexedTransfers,
        cpu,
      })
      console.log(`Indexed into ${dialect}: ${secs.toFixed(2)} s, ${indexedTransfers} transfers`)
      disk.set(dialect, await measureDisk(opened.store))
      if (dialect === 'postgres') {
        postgresTables = await describePostgresTables({
          store: opened.store,
          transactions: indexedTxs,
        })
        autovacuum = await readPostgresSetting(opened.store, 'autovacuum')
        disk.set('pg packed', await packPostgresTables(opened.store))
      }
      undoSpan ??= await readUndoSpan(opened.store)
      cleanups.splice(cleanups.indexOf(close), 1)
      await close()

      if (staged) {
        const fresh = await openStore(dialect)
        cleanups.push(fresh.close)
        const stages = await runStaged({ chain, store: fresh.store, caps, toBlock })
        stageRows.push({ name: `staged ${dialect}`, stages })
        console.log(`Staged run on ${dialect}: ${stages.total.toFixed(2)} s`)
        const { probes, noProbes } = stages.calls
        console.log(
          `  readBatchState node calls (JSON-RPC requests): ${probes.toLocaleString('en-US')} with the DeFi token probes, ${noProbes.toLocaleString('en-US')} without (+${(((probes - noProbes) / noProbes) * 100).toFixed(2)} %)`,
        )
        cleanups.splice(cleanups.indexOf(fresh.close), 1)
        await fresh.close()
      }
    }

    if (process.env.BENCH_OWN_PROCESS !== '0') {
      const own = await runOwnProcess({ chain, toBlock })
      rows.push({
        name: 'scry start sqlite',
        seconds: own.seconds,
        blocks,
        transactions,
        transfers: rows[0]?.transfers,
        cpu: own.cpu,
      })
      const ran = own.compiled ? 'dist/' : 'the sources through tsx; npm run build to compile'
      console.log(
        `scry start (own process, sqlite, ${ran}): ${own.seconds.toFixed(2)} s, peak RSS ${own.peakRssMiB === undefined ? 'unknown' : `${own.peakRssMiB.toFixed(0)} MiB`}`,
      )
    }

    const raw: Row = {
      name: 'raw fetch',
      seconds: rawBest.seconds,
      blocks,
      transactions,
      // The ceiling for transfers: what the stores derived from these blocks, at fetch speed.
      transfers: rows[0]?.transfers,
      cpu: rawBest.cpu,
    }
    console.log('')
    printTable({ rows: [raw, ...rows], raw })
    printCpu([raw, ...rows], raw)
    if (stageRows.length > 0) {
      console.log('')
      console.log('Staged (seconds; fetch overlaps the rest, fetchWait is what the loop waited):')
      printStages(stageRows)
    }
    if (disk.size > 0) {
      console.log('')
      console.log(`Disk per transaction (${transactions} transactions; tables with their indexes):`)
      for (const line of formatDisk({ disk, transactions })) console.log(line)
      if (undoSpan) {
        console.log(
          `undo_log holds the batches of blocks ${undoSpan.from}..${undoSpan.to} of 0..${toBlock} ` +
            `(those ending within finalityDepth ${chain.finalityDepth} of the head): it keeps ` +
            'that size on a longer chain, so it is not a cost per transaction.',
        )
      }
      if (disk.has('pg packed')) {
        console.log(
          `pg packed: the PostgreSQL tables again after VACUUM FULL (no dead row versions, every page full): what the same rows take once vacuumed (autovacuum is ${autovacuum} on this server) and their indexes rebuilt. Key indexes that grow inside each wallet's range split their pages in half and leave them so.`,
        )
      }
      if (postgresTables.length > 0) {
        console.log('')
        console.log('PostgreSQL, heap and indexes apart (dead: row versions not yet vacuumed):')
        for (const line of postgresTables) console.log(line)
      }
    }
    console.log('')
    console.log(`Peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`)
  } finally {
    await cleanUp()
  }
}

/** The blocks of the batches kept for undo (their markers), if any. */
async function readUndoSpan(store: Store): Promise<{ from: number; to: number } | undefined> {
  const row = await store.db
    .selectFrom('undo_log')
    .select((eb) => [eb.fn.min('from_block').as('from'), eb.fn.max('to_block').as('to')])
    .where('table_name', '=', '')
    .executeTakeFirst()
  return row?.from == null ? undefined : { from: Number(row.from), to: Number(row.to) }
}

/** Undone in reverse on the way out, also on Ctrl-C: anvil, databases, temp files. */
const cleanups: (() => Promise<void>)[] = []
async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup().catch((error: unknown) => console.error('Cleanup failed:', error))
  }
}

process.once('SIGINT', () => {
  console.error('Interrupted; cleaning up')
  void cleanUp().finally(() => process.exit(130))
})

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const message =
      error instanceof BaseError
        ? `${error.shortMessage}${error.details ? `\n${error.details}` : ''}`
        : error instanceof Error
          ? error.message
          : String(error)
    console.error(`bench:ingest failed: ${message}`)
    process.exit(1)
  },
)

function tracesMode(text: string | undefined): ChainConfig['traces'] {
  if (text === undefined || text === '') return CHAIN_DEFAULTS.traces
  if (text === 'auto' || text === 'debug' || text === 'parity' || text === 'off') return text
  console.error(
    `error: BENCH_TRACES must be auto, debug, parity or off, not ${JSON.stringify(text)}`,
  )
  process.exit(1)
}
