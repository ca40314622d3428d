/**
 * The indexer of this checkout against another's, on one generated chain, in one process:
 * `BENCH_BASE=/path/to/checkout npm run bench:compare-ingest`. Runs alternate (base, this,
 * this, base, …) so that a machine that slows down or speeds up during the runs weighs on both
 * alike; on the shared 2-core machines of this project `bench:ingest` runs of the same code
 * differed by up to 16 % (bench/README.md, 2026-11-27), more than many changes are worth. Prints each run's time,
 * the CPU seconds Scry and anvil used (`sampleCpu`) and the node calls the indexer made by
 * method (`eth_call` with a state override counted apart: the batched reads).
 *
 * The other checkout needs its own `node_modules` (a symlink to this one's will do, e.g. for a
 * `git worktree add ../base <commit>`). Its sources are imported as they are (through tsx),
 * as are this checkout's: both run the same way.
 *
 * Env: BENCH_BASE (required), BENCH_TRANSFERS (default 20,000), BENCH_ROUNDS (default 2: each
 * round runs both), BENCH_DB (sqlite|postgres, default sqlite; SCRY_TEST_PG_URL picks the
 * server), BENCH_TRACES (default parity), BENCH_LATENCY_MS (a delay added to every HTTP
 * request to the node, through a proxy, as a remote node has; as in `bench:ingest`).
 */
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CHAIN_DEFAULTS } from '../src/config/fields.ts'
import type { ChainConfig } from '../src/config/types.ts'
import { buildWorld } from '../src/dev/buildWorld.ts'
import { startAnvil } from '../src/dev/startAnvil.ts'
import type { RpcCall, RpcClient } from '../src/evm/rpc/createRpcClient.ts'
import { BaseError } from '../src/internal/errors.ts'
import { silentLogger } from '../src/internal/logger.ts'
import { dexDeployment } from '../src/prices/dexDeployments.ts'
import type { DialectName } from '../src/store/dialect.ts'
import { createFaultProxy, type FaultProxy } from '../test/support/createFaultProxy.ts'
import { createTestDatabase } from '../test/support/createTestStore.ts'
import { cpuBetween, sampleCpu } from './support/sampleCpu.ts'

/** What a run needs from a checkout, by the paths every checkout since 2026-11-25 has. */
type Checkout = {
  name: string
  createChainIndexer: typeof import('../src/indexer/createChainIndexer.ts').createChainIndexer
  createStore: typeof import('../src/store/createStore.ts').createStore
  createRpcClient: typeof import('../src/evm/rpc/createRpcClient.ts').createRpcClient
}

async function loadCheckout(name: string, root: string): Promise<Checkout> {
  const from = (path: string) => import(resolve(root, path))
  return {
    name,
    createChainIndexer: (await from('src/indexer/createChainIndexer.ts')).createChainIndexer,
    createStore: (await from('src/store/createStore.ts')).createStore,
    createRpcClient: (await from('src/evm/rpc/createRpcClient.ts')).createRpcClient,
  }
}

/** The client with every call counted by method. */
function counted(rpc: RpcClient, counts: Map<string, number>): RpcClient {
  const count = (call: RpcCall) => {
    const key =
      call.method === 'eth_call' && (call.params?.length ?? 0) > 2
        ? 'eth_call (batched)'
        : call.method
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return {
    request: (call, options) => {
      count(call)
      return rpc.request(call, options)
    },
    batch: (calls, options) => {
      for (const call of calls) count(call)
      return rpc.batch(calls, options)
    },
    close: () => rpc.close(),
  }
}

async function runOnce({
  checkout,
  chain,
  dialect,
  toBlock,
}: {
  checkout: Checkout
  chain: ChainConfig
  dialect: DialectName
  toBlock: number
}): Promise<string> {
  const { url, drop } = await createTestDatabase(dialect)
  const store = checkout.createStore({ url })
  const counts = new Map<string, number>()
  const rpc = counted(
    checkout.createRpcClient({
      urls: chain.rpc,
      batchSize: chain.rpcBatchSize,
      timeoutMs: 600_000,
    }),
    counts,
  )
  const controller = new AbortController()
  let failure: unknown
  try {
    await store.migrate()
    const indexer = checkout.createChainIndexer({ chain, store, logger: silentLogger(), rpc })
    const before = await sampleCpu()
    const started = performance.now()
    const done = indexer.run(controller.signal).catch((error: unknown) => {
      failure = error
    })
    for (;;) {
      if (failure) throw failure
      const cp = await store.getCheckpoint(chain.chainId)
      if (cp && cp.blockNumber >= toBlock) break
      await new Promise((r) => setTimeout(r, 20))
    }
    const seconds = (performance.now() - started) / 1000
    const after = await sampleCpu()
    controller.abort()
    await done
    const cpu = before && after ? cpuBetween(before, after) : undefined
    const calls = ['eth_call (batched)', 'eth_call', 'eth_getBalance']
      .map((m) => `${m} ${counts.get(m) ?? 0}`)
      .join(', ')
    return [
      checkout.name.padEnd(6),
      `${seconds.toFixed(2)} s`.padStart(9),
      cpu ? `scry ${cpu.scry.toFixed(2)}`.padStart(11) : '',
      cpu ? `anvil ${cpu.anvil.toFixed(2)}`.padStart(12) : '',
      cpu && dialect === 'postgres' ? `postgres ${cpu.postgres.toFixed(2)}` : '',
      ` ${calls}`,
    ].join(' ')
  } finally {
    controller.abort()
    rpc.close()
    await store.close()
    await drop()
  }
}

async function main(): Promise<void> {
  const basePath = process.env.BENCH_BASE
  if (!basePath) throw new BaseError('Set BENCH_BASE to the checkout to compare with.')
  const transfers = Number(process.env.BENCH_TRANSFERS ?? 20_000)
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
  const dialect = (process.env.BENCH_DB ?? 'sqlite') as DialectName
  const checkouts = [
    await loadCheckout('base', basePath),
    await loadCheckout('this', fileURLToPath(new URL('..', import.meta.url))),
  ]
  const anvil = await startAnvil({ chainId: 1 })
  let proxy: FaultProxy | undefined
  try {
    console.log(`Building world: 200 wallets, ${transfers} transfers …`)
    const world = await buildWorld({ rpcUrl: anvil.rpcUrl, chainId: 1, wallets: 200, transfers })
    const toBlock = Number(world.endBlock)
    console.log(`World: blocks 0..${toBlock}, ${world.stats.transactions} transactions`)
    const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 0)
    proxy =
      latencyMs > 0
        ? await createFaultProxy({
            target: anvil.rpcUrl,
            failRate: 0,
            rateLimitRate: 0,
            delayRate: 1,
            delayMs: latencyMs,
          })
        : undefined
    if (proxy) console.log(`Node latency: ${latencyMs} ms added to every HTTP request (a proxy)`)
    const chain: ChainConfig = {
      chainId: 1,
      name: 'bench',
      rpc: [proxy?.url ?? anvil.rpcUrl],
      ...CHAIN_DEFAULTS,
      ...dexDeployment(1),
      startBlock: 0,
      traces: (process.env.BENCH_TRACES ?? 'parity') as ChainConfig['traces'],
      expectedChainId: 1,
    }
    console.log(`Indexing it into ${dialect}, CPU seconds of each party during the run:`)
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? checkouts : [...checkouts].reverse()
      for (const checkout of order) {
        console.log(await runOnce({ checkout, chain, dialect, toBlock }))
      }
    }
  } finally {
    await proxy?.close()
    await anvil.stop()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
