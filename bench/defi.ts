/**
 * DeFi positions benchmark: on one and on three anvil chains (ids 1, 10, 8453), wallets with
 * 1, 10 and 100 positions of mixed types (Uniswap V2 LP, Uniswap V3 NFTs, ERC4626 shares,
 * Aave V3 supply and debt), indexed into SQLite; then `/v1/evm/defi/positions` driven with
 * autocannon against an API server in its own process, beside `/v1/evm/balances` for the same
 * wallets, and the floor: the same eth_call batches (`readDefiPositions`) sent straight to the
 * nodes, without HTTP, store or valuation. Prints req/s, p50, p99, and the eth_calls and RPC
 * round trips one request makes (counted by a proxy in front of each node).
 * `npm run bench:defi`.
 *
 * Env: BENCH_SECONDS (5 per run), BENCH_CONNECTIONS (10), BENCH_SIZES (1,10,100).
 */
import { type ChildProcess, fork } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Abi, maxUint256, parseEther, parseUnits } from 'viem'
import { readDefiCandidates } from '../src/api/defi/readDefiCandidates.ts'
import type { ChainConfig } from '../src/config/types.ts'
import { readDefiPositions } from '../src/defi/readDefiPositions.ts'
import type { DefiCandidate } from '../src/defi/types.ts'
import { anvilAccounts } from '../src/dev/anvilAccounts.ts'
import { loadArtifact, UNISWAP_V3_POOL_INIT_CODE_HASH } from '../src/dev/artifacts.ts'
import { compileContracts } from '../src/dev/compileContracts.ts'
import { type AnvilActions, createAnvilActions } from '../src/dev/createAnvilActions.ts'
import { deployAaveV3 } from '../src/dev/deployAaveV3.ts'
import { type Anvil, startAnvil } from '../src/dev/startAnvil.ts'
import { createRpcClient, type RpcClient } from '../src/evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../src/evm/types.ts'
import { createChainIndexer } from '../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../src/internal/logger.ts'
import { createStore, type Store } from '../src/store/createStore.ts'
import { createCountingProxy } from '../test/support/createCountingProxy.ts'
import {
  createPriceWorld,
  type PriceWorld,
  priceWorldChain,
} from '../test/support/createPriceWorld.ts'
import { runIndexer } from '../test/support/testChain.ts'
import { type LoadResult, runLoad } from './support/runLoad.ts'

const CHAIN_IDS = [1, 10, 8453] as const
const DEADLINE = 2n ** 48n
const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)
const sizes = (process.env.BENCH_SIZES ?? '1,10,100').split(',').map(Number)

type BenchChain = {
  anvil: Anvil
  w: PriceWorld
  proxy: Awaited<ReturnType<typeof createCountingProxy>>
  /** Straight to the node: what the loaded API server and the floor use. */
  config: ChainConfig
  direct: RpcClient
}

/** How a wallet's `size` positions are split over the types. */
function mix(size: number) {
  const v2 = size >= 10 ? 1 : 0
  const aave = size >= 10 ? 2 : 0
  const v3 = Math.floor((size - v2 - aave) * 0.6)
  return { v2, aave, v3, vaults: size - v2 - aave - v3 }
}

async function main() {
  console.log(
    `bench:defi  ${cpus().length} cores, ${seconds} s per run, ${connections} connections, sizes ${sizes.join(', ')}`,
  )
  const wallets = anvilAccounts(3 + sizes.length)
    .slice(3)
    .map((a) => a.address.toLowerCase() as Address)
  const dir = await mkdtemp(join(tmpdir(), 'scry-bench-defi-'))
  const dbUrl = join(dir, 'bench.sqlite')
  const chains: BenchChain[] = []
  let server: Awaited<ReturnType<typeof startServer>> | undefined
  // A second server whose nodes sit behind the counting proxies: one request each, counted.
  let counting: Awaited<ReturnType<typeof startServer>> | undefined
  try {
    for (const chainId of CHAIN_IDS) {
      const started = Date.now()
      chains.push(await buildChain(chainId, wallets))
      console.log(
        `chain ${chainId}: world and positions in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      )
    }
    const store = createStore({ url: dbUrl })
    await store.migrate()
    await indexAll(store, chains)
    await store.close()
    server = await startServer(
      dbUrl,
      chains.map((c) => c.config),
    )
    const counter = await startServer(
      dbUrl,
      chains.map((c) => ({ ...c.config, rpc: [c.proxy.url] })),
    )
    counting = counter
    // The API checks each chain's deployment once at start (eth_getCode + an identity call per
    // entry): let that finish before any request is counted.
    await fetch(`${counter.url}/v1/evm/defi/supported-protocols`, {
      headers: { 'x-scry-api-key': counter.key },
    })

    const rows: string[][] = []
    for (const count of [1, 3]) {
      const used = chains.slice(0, count)
      const ids = used.map((c) => c.config.chainId).join(',')
      for (const [i, size] of sizes.entries()) {
        const wallet = wallets[i]!
        const defiPath = `/v1/evm/defi/positions/${wallet}?chain_ids=${ids}`
        const counted = await countOne(counter, used, defiPath)
        if (counted.positions < size * count)
          throw new Error(`${wallet} has ${counted.positions} positions, not ${size * count}`)
        const load = (name: string, path: string) =>
          runLoad({
            name,
            url: server!.url,
            key: server!.key,
            path: () => path,
            seconds,
            connections,
          })
        const defi = await load('defi', defiPath)
        const balances = await load('balances', `/v1/evm/balances/${wallet}?chain_ids=${ids}`)
        const floor = await runFloor(used, wallet, dbUrl)
        rows.push([
          String(count),
          String(size),
          ...figures(defi),
          counted.ethCalls.toFixed(0),
          counted.trips.toFixed(0),
          ...figures(balances),
          ...figures(floor),
        ])
      }
    }
    printTable(
      [
        'chains',
        'positions',
        'defi req/s',
        'p50 ms',
        'p99 ms',
        'eth_calls/req',
        'round trips/req',
        'balances req/s',
        'p50 ms',
        'p99 ms',
        'floor req/s',
        'p50 ms',
        'p99 ms',
      ],
      rows,
    )
  } finally {
    await server?.close()
    await counting?.close()
    for (const c of chains) {
      c.direct.close()
      await c.proxy.close()
      await c.anvil.stop()
    }
    await rm(dir, { recursive: true, force: true })
  }
}

function figures(r: Pick<LoadResult, 'requestsPerSecond' | 'p50' | 'p99'>): string[] {
  return [r.requestsPerSecond.toFixed(0), r.p50.toFixed(1), r.p99.toFixed(1)]
}

async function buildChain(chainId: number, wallets: readonly Address[]): Promise<BenchChain> {
  const anvil = await startAnvil({ chainId })
  const w = await createPriceWorld(anvil)
  const actions = createAnvilActions({ rpcUrl: anvil.rpcUrl, gas: 15_000_000n })
  const compiled = await compileContracts()
  const erc20 = compiled.DemoERC20.abi
  const market = await deployAaveV3({
    actions,
    from: w.deployer,
    reserves: [
      { asset: w.usdc, decimals: 6, priceUsd8: 1_0000_0000n },
      { asset: w.weth, decimals: 18, priceUsd8: 2000_0000_0000n },
    ].map((r) => ({ ...r, ltv: 8000, liquidationThreshold: 8500, borrowable: true })),
  })
  // Ether to borrow.
  await send(actions, w.deployer, w.weth, erc20, 'approve', [market.pool, maxUint256])
  await send(actions, w.deployer, market.pool, market.abis.pool, 'supply', [
    w.weth,
    parseEther('1000'),
    w.deployer,
    0,
  ])
  const vaultCount = Math.max(...sizes.map((s) => mix(s).vaults))
  const vaults: Address[] = []
  for (let i = 0; i < vaultCount; i++)
    vaults.push(
      await actions.deploy({
        from: w.deployer,
        artifact: compiled.DemoVault,
        args: [w.tka, `Bench vault ${i}`, `bv${i}`, 0],
      }),
    )
  const tick = await v3Tick(actions, w)
  for (const [i, size] of sizes.entries()) {
    const wallet = wallets[i]!
    const plan = mix(size)
    await send(actions, w.deployer, w.usdc, erc20, 'mint', [wallet, parseUnits('10000000', 6)])
    await send(actions, w.deployer, w.tka, erc20, 'mint', [wallet, parseEther('10000000')])
    for (const spender of [
      w.v2Router,
      w.positionManager,
      market.pool,
      ...vaults.slice(0, plan.vaults),
    ])
      for (const token of [w.usdc, w.tka])
        await send(actions, wallet, token, erc20, 'approve', [spender, maxUint256])
    if (plan.v2 > 0)
      await send(
        actions,
        wallet,
        w.v2Router,
        loadArtifact('UniswapV2Router02').abi,
        'addLiquidity',
        [w.tka, w.usdc, parseEther('100'), parseUnits('200', 6), 0n, 0n, wallet, DEADLINE],
      )
    if (plan.aave > 0) {
      await send(actions, wallet, market.pool, market.abis.pool, 'supply', [
        w.usdc,
        parseUnits('10000', 6),
        wallet,
        0,
      ])
      await send(actions, wallet, market.pool, market.abis.pool, 'borrow', [
        w.weth,
        parseEther('1'),
        2n,
        0,
        wallet,
      ])
    }
    const [token0, token1] = [w.tka, w.usdc].sort() as [Address, Address]
    for (let k = 0; k < plan.v3; k++)
      await send(
        actions,
        wallet,
        w.positionManager,
        loadArtifact('NonfungiblePositionManager').abi,
        'mint',
        [
          {
            token0,
            token1,
            fee: 3000,
            tickLower: tick - 60 * (k + 1),
            tickUpper: tick + 60 * (k + 1),
            amount0Desired: token0 === w.tka ? parseEther('10') : parseUnits('20', 6),
            amount1Desired: token1 === w.tka ? parseEther('10') : parseUnits('20', 6),
            amount0Min: 0n,
            amount1Min: 0n,
            recipient: wallet,
            deadline: DEADLINE,
          },
        ],
      )
    for (const vault of vaults.slice(0, plan.vaults))
      await send(actions, wallet, vault, compiled.DemoVault.abi, 'deposit', [
        parseEther('1'),
        wallet,
      ])
  }
  const proxy = await createCountingProxy({ target: anvil.rpcUrl })
  const defi = {
    v3Managers: [
      {
        address: w.positionManager,
        poolDeployer: w.v3Factory,
        poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
        protocol: 'UniswapV3',
      },
    ],
    v2Protocols: {},
    vaults: vaults.map((address) => ({ address, protocol: 'BenchVault' })),
    aaveV3Pools: [market.pool],
  }
  return {
    anvil,
    w,
    proxy,
    config: priceWorldChain({ anvil, w, defi }),
    direct: createRpcClient({ urls: [anvil.rpcUrl] }),
  }
}

async function send(
  actions: AnvilActions,
  from: Address,
  to: Address,
  abi: Abi,
  functionName: string,
  args: readonly unknown[],
) {
  await actions.send({ from, to, abi, functionName, args })
}

/** The TKA/USDC 0.3 % pool's tick, on a multiple of its spacing. */
async function v3Tick(actions: AnvilActions, w: PriceWorld): Promise<number> {
  const slot0 = await actions.call<readonly [bigint, number]>({
    to: w.pools.tkaUsdcV3,
    abi: loadArtifact('UniswapV3Pool').abi,
    functionName: 'slot0',
  })
  return Math.floor(slot0[1] / 60) * 60
}

/** Indexes every chain into the store up to its head, straight from the node. */
async function indexAll(store: Store, chains: readonly BenchChain[]) {
  const started = Date.now()
  await Promise.all(
    chains.map(async (c) => {
      const chain = c.config
      const run = runIndexer({
        indexer: createChainIndexer({ chain, store, logger: silentLogger() }),
        store,
      })
      const head = await c.direct.request<{ number: Hex; hash: Hex }>({
        method: 'eth_getBlockByNumber',
        params: ['latest', false],
      })
      await run.synced({ block: Number(head.number), hash: head.hash, timeoutMs: 300_000 })
      await run.stop()
    }),
  )
  console.log(`indexed ${chains.length} chains in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

/** One request: the eth_calls and HTTP round trips it made to the nodes, and its positions. */
async function countOne(
  server: { url: string; key: string },
  chains: readonly BenchChain[],
  path: string,
) {
  const calls = () => chains.reduce((n, c) => n + (c.proxy.seen.get('eth_call') ?? 0), 0)
  const trips = () => chains.reduce((n, c) => n + c.proxy.requests(), 0)
  const [calls0, trips0] = [calls(), trips()]
  const res = await fetch(`${server.url}${path}`, { headers: { 'x-scry-api-key': server.key } })
  const body = (await res.json()) as { positions?: { positions?: unknown[] }[] }
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`)
  // V3 NFTs of one pool are one entry with a range each.
  const positions = (body.positions ?? []).reduce((n, p) => n + (p.positions?.length ?? 1), 0)
  return { ethCalls: calls() - calls0, trips: trips() - trips0, positions }
}

/** readDefiPositions on every chain at once, straight to the nodes, `connections` at a time. */
async function runFloor(chains: readonly BenchChain[], wallet: Address, dbUrl: string) {
  const store = createStore({ url: dbUrl })
  try {
    const reads: {
      rpc: RpcClient
      candidates: DefiCandidate[]
      blockNumber: bigint
      blockHash: Hex
    }[] = []
    for (const c of chains) {
      const checkpoint = (await store.getCheckpoint(c.config.chainId))!
      const { candidates } = await readDefiCandidates({
        db: store.db,
        chain: c.config,
        wallet,
        limit: 200,
      })
      reads.push({
        rpc: c.direct,
        candidates,
        blockNumber: BigInt(checkpoint.blockNumber),
        blockHash: checkpoint.blockHash as Hex,
      })
    }
    const latencies: number[] = []
    const until = Date.now() + seconds * 1000
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < until) {
          const t0 = performance.now()
          await Promise.all(reads.map((r) => readDefiPositions(r)))
          latencies.push(performance.now() - t0)
        }
      }),
    )
    latencies.sort((a, b) => a - b)
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!
    return { requestsPerSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99) }
  } finally {
    await store.close()
  }
}

async function startServer(dbUrl: string, chains: readonly ChainConfig[]) {
  const child: ChildProcess = fork(new URL('./support/defiServer.ts', import.meta.url), [], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    env: { ...process.env, SCRY_BENCH_DB_URL: dbUrl, SCRY_BENCH_CHAINS: JSON.stringify(chains) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const message = (type: string) =>
    new Promise<{ url: string; key: string }>((resolve, reject) => {
      child.on('message', (m: { type: string; url: string; key: string }) => {
        if (m.type === type) resolve(m)
      })
      child.once('exit', (code) => reject(new Error(`defi server exited (${code})`)))
    })
  const ready = await message('ready')
  return {
    url: ready.url,
    key: ready.key,
    async close() {
      const closed = message('closed').catch(() => undefined)
      child.send({ type: 'close' })
      await closed
    },
  }
}

function printTable(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ')
  console.log(line(head))
  for (const row of rows) console.log(line(row))
}

await main()
