/**
 * Price work per batch against the number of pools: `npm run bench:prices`. For each pool
 * count, a chain's trusted V2 and V3 pools (a WETH/USDC hub, most tokens paired with WETH,
 * some with USDC, some with each other) go into the indexer's price graph
 * (`createPriceGraph`, over a fresh SQLite store) as one batch; then batches of swaps spread
 * uniformly over all pools move reserves, and each batch's `update` is timed and its price
 * rows counted (the token_prices and token_price_hours changes the batch would write). Also
 * printed: the process's CPU time per batch (the figure to read on a shared machine), and the
 * wall time per distinct pool a batch swapped in (with 20 pools, 20 uniform swaps touch ~13
 * pools a batch, with 20,000 pools 20: per batch, the large chain has more to do).
 *
 * Env: BENCH_POOLS (comma-separated pool counts, default 20,20000), BENCH_BATCHES (default
 * 500), BENCH_SWAPS (swaps per batch, default 20), BENCH_HUB=1 (every batch also swaps in the
 * WETH/USDC pool, as on a real chain, where it trades in almost every block), BENCH_SEED.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPrng } from '../src/dev/createPrng.ts'
import type { Address } from '../src/evm/types.ts'
import { createPriceGraph, type PriceGraphChain } from '../src/prices/createPriceGraph.ts'
import { createStore } from '../src/store/createStore.ts'
import type { PoolTable } from '../src/store/schema.ts'
import { fromU256, toU256 } from '../src/store/u256.ts'

const CHAIN_ID = 1
const USDC = address(1)
const WETH = address(2)
const V2_FACTORY = address(3)
const V3_FACTORY = address(4)
const Q96 = 2 ** 96

type Result = {
  pools: number
  tokens: number
  msPerBatch: number[]
  /** CPU time of the process (user + system) over each batch's `update`. */
  cpuMsPerBatch: number[]
  /** Distinct pools each batch swapped in. */
  touchedPerBatch: number[]
  rowsPerBatch: number[]
  hubBatches: number
  hubRows: number[]
}

function address(n: number): Address {
  return `0x${n.toString(16).padStart(40, '0')}` as Address
}

function envInt(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`)
  return n
}

/**
 * A trusted pool holding `units0` and `units1` whole tokens, as the pools table stores it
 * (V3: the same balances, with the price and a liquidity to match).
 */
function poolRow({
  n,
  type,
  token0,
  token1,
  units0,
  units1,
  decimals0,
  decimals1,
}: {
  n: number
  type: PoolTable['type']
  token0: Address
  token1: Address
  units0: number
  units1: number
  decimals0: number
  decimals1: number
}): PoolTable {
  const raw0 = BigInt(Math.round(units0)) * 10n ** BigInt(decimals0)
  const raw1 = BigInt(Math.round(units1)) * 10n ** BigInt(decimals1)
  const v3 = type === 'uniswap_v3'
  const ratio = Number(raw1) / Number(raw0)
  return {
    chain_id: CHAIN_ID,
    address: address(1_000_000 + n),
    type,
    trusted: 1,
    factory: v3 ? V3_FACTORY : V2_FACTORY,
    token0,
    token1,
    fee: v3 ? 3000 : null,
    reserve0: toU256(raw0),
    reserve1: toU256(raw1),
    sqrt_price_x96: v3 ? toU256(BigInt(Math.floor(Math.sqrt(ratio) * Q96))) : null,
    tick: v3 ? Math.floor(Math.log(ratio) / Math.log(1.0001)) : null,
    liquidity: v3 ? toU256(BigInt(Math.floor(Math.sqrt(Number(raw0) * Number(raw1))))) : null,
    block_number: 0,
  }
}

/** The same pool after a swap that moves its price by `move` (constant product). */
function swapped(row: PoolTable, move: number, blockNumber: number): PoolTable {
  const r0 = Number(fromU256(row.reserve0!))
  const r1 = Number(fromU256(row.reserve1!))
  const k = Math.sqrt(1 + move)
  const raw0 = BigInt(Math.floor(r0 / k))
  const raw1 = BigInt(Math.floor(r1 * k))
  const next: PoolTable = {
    ...row,
    reserve0: toU256(raw0),
    reserve1: toU256(raw1),
    block_number: blockNumber,
  }
  if (row.type === 'uniswap_v3') {
    const ratio = Number(raw1) / Number(raw0)
    next.sqrt_price_x96 = toU256(BigInt(Math.floor(Math.sqrt(ratio) * Q96)))
    next.tick = Math.floor(Math.log(ratio) / Math.log(1.0001))
  }
  return next
}

async function measure({
  pools: count,
  batches,
  swaps,
  hub,
  seed,
}: {
  pools: number
  batches: number
  swaps: number
  hub: boolean
  seed: number
}): Promise<Result> {
  const prng = createPrng(seed)
  const random = () => prng.next()
  const dir = mkdtempSync(join(tmpdir(), 'scry-bench-prices-'))
  const store = createStore({ url: join(dir, 'scry.sqlite') })
  try {
    await store.migrate()
    const chain: PriceGraphChain = {
      chainId: CHAIN_ID,
      usdc: [USDC],
      wrappedNative: WETH,
      dexFactories: [
        { type: 'uniswap_v2', address: V2_FACTORY },
        { type: 'uniswap_v3', address: V3_FACTORY },
      ],
      minPoolLiquidityUsd: 1000,
    }
    const graph = createPriceGraph({ store, chain })
    await graph.load()

    // The hub: WETH at $2,000 with $50M a side.
    const decimals = new Map<Address, number>([
      [USDC, 6],
      [WETH, 18],
    ])
    const usdOf = new Map<Address, number>([
      [USDC, 1],
      [WETH, 2000],
    ])
    const rows: PoolTable[] = [
      poolRow({
        n: 0,
        type: 'uniswap_v2',
        token0: USDC,
        token1: WETH,
        units0: 50e6,
        units1: 50e6 / 2000,
        decimals0: 6,
        decimals1: 18,
      }),
    ]
    const tokens: Address[] = []
    for (let n = 1; n < count; n++) {
      const roll = random()
      let token0: Address
      let token1: Address
      if (roll < 0.05 && tokens.length >= 2) {
        // Two tokens already priced: a pool between them.
        token0 = tokens[Math.floor(random() * tokens.length)]!
        do token1 = tokens[Math.floor(random() * tokens.length)]!
        while (token1 === token0)
      } else {
        token0 = address(10_000 + n)
        token1 = roll < 0.8 ? WETH : USDC
        tokens.push(token0)
        decimals.set(token0, 18)
        usdOf.set(token0, 10 ** (random() * 6 - 3))
      }
      const sideUsd = 10 ** (4 + random() * 3)
      rows.push(
        poolRow({
          n,
          type: random() < 0.3 ? 'uniswap_v3' : 'uniswap_v2',
          token0,
          token1,
          units0: sideUsd / usdOf.get(token0)!,
          units1: sideUsd / usdOf.get(token1)!,
          decimals0: decimals.get(token0)!,
          decimals1: decimals.get(token1)!,
        }),
      )
    }
    graph.update({ pools: rows, decimals, blockNumber: 1, blockTime: 3600 })

    const msPerBatch: number[] = []
    const cpuMsPerBatch: number[] = []
    const touchedPerBatch: number[] = []
    const rowsPerBatch: number[] = []
    const hubRows: number[] = []
    let hubBatches = 0
    for (let b = 0; b < batches; b++) {
      const touched = new Map<number, PoolTable>()
      for (let s = 0; s < swaps + (hub ? 1 : 0); s++) {
        const i = s === swaps ? 0 : Math.floor(random() * rows.length)
        const moved = swapped(touched.get(i) ?? rows[i]!, (random() - 0.5) * 0.01, b + 2)
        touched.set(i, moved)
      }
      for (const [i, row] of touched) rows[i] = row
      const cpu = process.cpuUsage()
      const started = performance.now()
      const changes = graph.update({
        pools: [...touched.values()],
        decimals: new Map(),
        blockNumber: b + 2,
        blockTime: 3600 + 12 * (b + 1),
      })
      msPerBatch.push(performance.now() - started)
      const used = process.cpuUsage(cpu)
      cpuMsPerBatch.push((used.user + used.system) / 1000)
      touchedPerBatch.push(touched.size)
      rowsPerBatch.push(changes.length)
      if (touched.has(0)) {
        hubBatches++
        hubRows.push(changes.length)
      }
    }
    return {
      pools: count,
      tokens: decimals.size,
      msPerBatch,
      cpuMsPerBatch,
      touchedPerBatch,
      rowsPerBatch,
      hubBatches,
      hubRows,
    }
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length)
function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return 0
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

async function main(): Promise<void> {
  const counts = (process.env.BENCH_POOLS ?? '20,20000').split(',').map((s) => {
    const n = Number(s.trim())
    if (!Number.isSafeInteger(n) || n < 2) throw new Error('BENCH_POOLS: pool counts of 2 or more')
    return n
  })
  const batches = envInt('BENCH_BATCHES', 500)
  const swaps = envInt('BENCH_SWAPS', 20)
  const seed = envInt('BENCH_SEED', Math.floor(Math.random() * 2 ** 31))
  const hub = process.env.BENCH_HUB === '1'
  console.log(
    `Price work per batch: ${batches} batches of ${swaps} swaps spread uniformly over the pools${hub ? ' and one in the WETH/USDC hub' : ''} (seed ${seed})`,
  )
  const header = [
    'pools',
    'tokens',
    'ms/batch mean',
    'p50',
    'p99',
    'max',
    'price rows mean',
    'p99',
    'max',
    'hub batches',
    'rows then',
    'cpu ms/batch mean',
    'p50',
    'pools touched mean',
    'µs/pool touched mean',
    'p50',
  ]
  console.log(header.join(' | '))
  for (const pools of counts) {
    const r = await measure({ pools, batches, swaps, hub, seed })
    // Wall time per distinct pool swapped: with 20 pools, 20 swaps land on ~13 of them.
    const perPool = r.msPerBatch.map((ms, i) => (1000 * ms) / r.touchedPerBatch[i]!)
    console.log(
      [
        r.pools,
        r.tokens,
        mean(r.msPerBatch).toFixed(3),
        quantile(r.msPerBatch, 0.5).toFixed(3),
        quantile(r.msPerBatch, 0.99).toFixed(3),
        Math.max(...r.msPerBatch).toFixed(3),
        mean(r.rowsPerBatch).toFixed(1),
        quantile(r.rowsPerBatch, 0.99),
        Math.max(...r.rowsPerBatch),
        r.hubBatches,
        r.hubBatches === 0 ? '-' : mean(r.hubRows).toFixed(0),
        mean(r.cpuMsPerBatch).toFixed(3),
        quantile(r.cpuMsPerBatch, 0.5).toFixed(3),
        mean(r.touchedPerBatch).toFixed(1),
        mean(perPool).toFixed(2),
        quantile(perPool, 0.5).toFixed(2),
      ].join(' | '),
    )
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
