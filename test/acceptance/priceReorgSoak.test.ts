import { type Address, encodeFunctionData, erc20Abi, type Hex, parseAbi } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readTokenPrices } from '../../src/api/prices/readTokenPrices.ts'
import type { ChainConfig } from '../../src/config/types.ts'
import { loadArtifact } from '../../src/dev/artifacts.ts'
import { createPrng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import {
  createPriceWorld,
  DEADLINE,
  type PriceWorld,
  priceWorldChain,
} from '../support/createPriceWorld.ts'
import { createTestStore, DIALECTS, type TestStore } from '../support/createTestStore.ts'
import { storesAtHead } from '../support/storesAtHead.ts'
import { runIndexer } from '../support/testChain.ts'

// Prices under reorgs (issue 11, prices stored relative to the route's parent, migration
// 0018): random swaps in the price world's pools (WETH/USDC V2 and V3, TKA/USDC V2, TKB/WETH
// V3), then an anvil_reorg of depth 1-6 whose new branch swaps differently. After every round,
// on both stores, each stored price equals the price its pool has on the node at the indexed
// block (V2 reserves, V3 slot0, with the tokens' own decimals), and the USD prices read back
// equal those multiplied along the stored routes. At the end a store that indexed the final
// branch from scratch holds the same prices and routes. SCRY_SOAK_SEED repeats a run,
// SCRY_SOAK_ROUNDS changes its length (default 12).
const CHAIN_ID = 1
const SEED = Number(process.env.SCRY_SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31))
const ROUNDS = Number(process.env.SCRY_SOAK_ROUNDS ?? 12)
const prng = createPrng(SEED)
const Q96 = 2 ** 96

const v2Router = loadArtifact('UniswapV2Router02').abi
const swapRouter = loadArtifact('SwapRouter').abi
const v2Pair = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)'])
const v3Pool = parseAbi([
  'function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)',
])
const pairTokens = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
])

let anvil: Anvil
let w: PriceWorld
let chain: ChainConfig
const sides: { store: TestStore; run: ReturnType<typeof runIndexer> }[] = []
const decimals = new Map<string, number>()

beforeAll(async () => {
  console.log(`price reorg soak: seed ${SEED} (SCRY_SOAK_SEED=${SEED} repeats it)`)
  anvil = await startAnvil({ chainId: CHAIN_ID })
  w = await createPriceWorld(anvil)
  chain = priceWorldChain({ anvil, w, batchSize: 4 })
  for (const token of [w.usdc, w.weth, w.tka, w.tkb, w.tkc]) {
    const d = await w.pub.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' })
    decimals.set(token, d)
  }
  for (const dialect of DIALECTS) {
    const store = await createTestStore(dialect)
    const run = runIndexer({
      indexer: createChainIndexer({ chain, store: store.store, logger: silentLogger() }),
      store: store.store,
    })
    sides.push({ store, run })
  }
  await synced()
}, 240_000)

afterAll(async () => {
  for (const s of sides) {
    await s.run.stop().catch(() => undefined)
    await s.store.drop()
  }
  await anvil?.stop()
})

const rpc = <T>(method: string, params: unknown[]) =>
  w.pub.request({ method: method as never, params: params as never }) as Promise<T>

/** Until every store's checkpoint is the node's head, by hash. */
const synced = () =>
  storesAtHead({
    node: w.pub,
    stores: sides.map((s) => s.store.store),
    chainId: CHAIN_ID,
    label: `seed ${SEED}`,
  })

/** A random swap by the trader in one of the pools that price WETH, TKA and TKB. */
function randomSwap(): { from: Address; to: Address; data: Hex } {
  const from = w.trader
  const scale = 10n ** BigInt(prng.between(0, 3))
  const v2 = (path: Address[], amountIn: bigint) => ({
    from,
    to: w.v2Router,
    data: encodeFunctionData({
      abi: v2Router,
      functionName: 'swapExactTokensForTokens',
      args: [amountIn, 0n, path, from, DEADLINE],
    }),
  })
  const v3 = (tokenIn: Address, tokenOut: Address, fee: number, amountIn: bigint) => ({
    from,
    to: w.swapRouter,
    data: encodeFunctionData({
      abi: swapRouter,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn,
          tokenOut,
          fee,
          recipient: from,
          deadline: DEADLINE,
          amountIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
    }),
  })
  const usdc = 10n ** 6n
  const eth = 10n ** 16n // 0.01
  switch (prng.int(8)) {
    case 0:
      return v2([w.weth, w.usdc], eth * scale)
    case 1:
      return v2([w.usdc, w.weth], 30n * usdc * scale)
    case 2:
      return v2([w.tka, w.usdc], 10n ** 18n * 5n * scale)
    case 3:
      return v2([w.usdc, w.tka], 10n * usdc * scale)
    case 4:
      return v3(w.weth, w.usdc, 500, eth * scale)
    case 5:
      return v3(w.usdc, w.weth, 500, 30n * usdc * scale)
    case 6:
      return v3(w.tkb, w.weth, 3000, 10n ** 18n * 10n * scale)
    default:
      return v3(w.weth, w.tkb, 3000, eth * scale)
  }
}

async function swap(): Promise<void> {
  const hash = await rpc<Hex>('eth_sendTransaction', [randomSwap()])
  await w.pub.waitForTransactionReceipt({ hash })
}

/** Price of `token` in `parent`'s units per the node's state of `pool` at `block`. */
async function nodePrice(pool: Address, token: Address, parent: Address, block: bigint) {
  const side = (functionName: 'token0' | 'token1') =>
    w.pub
      .readContract({ address: pool, abi: pairTokens, functionName, blockNumber: block })
      .then((a) => a.toLowerCase())
  const [token0, token1] = await Promise.all([side('token0'), side('token1')])
  expect([token0, token1].sort()).toEqual([token, parent].sort())
  const d0 = decimals.get(token0)!
  const d1 = decimals.get(token1)!
  let ratio: number // token1 per token0, in whole tokens
  const pair = await w.pub
    .readContract({ address: pool, abi: v2Pair, functionName: 'getReserves', blockNumber: block })
    .catch(() => undefined)
  if (pair) {
    ratio = Number(pair[1]) / 10 ** d1 / (Number(pair[0]) / 10 ** d0)
  } else {
    const [sqrtPriceX96] = await w.pub.readContract({
      address: pool,
      abi: v3Pool,
      functionName: 'slot0',
      blockNumber: block,
    })
    const sqrt = Number(sqrtPriceX96) / Q96
    ratio = sqrt * sqrt * 10 ** (d0 - d1)
  }
  return token === token0 ? ratio : 1 / ratio
}

const close = (a: number, b: number, tolerance = 1e-9) =>
  Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b))

/** Every stored price is its pool's on the node, and USD read back is the route's product. */
async function checkSide(side: (typeof sides)[number], block: bigint, where: string) {
  const rows = await side.store.store.db
    .selectFrom('token_prices')
    .select(['token', 'parent', 'price', 'pool'])
    .where('chain_id', '=', CHAIN_ID)
    .execute()
  const byToken = new Map(rows.map((r) => [r.token, r]))
  expect(byToken.get(w.tkb)?.parent, `${where}: TKB is priced through WETH`).toBe(w.weth)
  const usd = new Map<string, number>([[w.usdc, 1]])
  const usdOf = (token: string): number => {
    const known = usd.get(token)
    if (known !== undefined) return known
    const row = byToken.get(token)!
    const value = usdOf(row.parent!) * fromNode.get(token)!
    usd.set(token, value)
    return value
  }
  const fromNode = new Map<string, number>()
  for (const row of rows) {
    if (row.parent === null) continue
    const expected = await nodePrice(
      row.pool as Address,
      row.token as Address,
      row.parent as Address,
      block,
    )
    fromNode.set(row.token, expected)
    expect(close(row.price, expected), `${where}: ${row.token} ${row.price} vs ${expected}`).toBe(
      true,
    )
  }
  const read = await readTokenPrices({
    db: side.store.store.db,
    chain,
    assets: rows.map((r) => r.token as Address),
  })
  for (const row of rows) {
    const expected = usdOf(row.token)
    const got = read.get(row.token as Address)?.priceUsd
    expect(got !== undefined && close(got, expected), `${where}: ${row.token} $${got}`).toBe(true)
  }
}

test('behavior: random swaps and reorgs of depth 1-6 leave every stored price equal to its pool on the node, and to a clean index', async () => {
  // The world's own blocks (pools and their liquidity) stay: a reorg deeper than the swaps
  // since would take the liquidity away, and TKB's price with it (seed 1870005990 did).
  const built = (await synced()).number
  const depths: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = prng.between(2, 8); i > 0; i--) await swap()
    const before = await synced()
    const depth = Math.min(prng.between(1, 6), Number(before.number - built))
    depths.push(depth)
    const replacements = Array.from({ length: prng.between(1, 3) }, () => [
      randomSwap(),
      prng.int(depth),
    ])
    await rpc('anvil_reorg', [depth, replacements])
    for (let i = prng.pick([0, 1, prng.between(2, 4)]); i > 0; i--) await swap()
    const head = await synced()
    for (const [i, side] of sides.entries()) {
      await checkSide(side, head.number, `seed ${SEED} round ${round} ${DIALECTS[i]}`)
    }
  }
  console.log(`price reorg soak: seed ${SEED}, depths ${depths.join(',')}`)

  // A store that indexed the final branch once holds the same routes and prices.
  const clean = await createTestStore('sqlite')
  try {
    const head = await synced()
    const run = runIndexer({
      indexer: createChainIndexer({ chain, store: clean.store, logger: silentLogger() }),
      store: clean.store,
    })
    await run.synced({ block: Number(head.number), timeoutMs: 120_000 })
    await run.stop()
    const routes = async (store: TestStore) => {
      const rows = await store.store.db
        .selectFrom('token_prices')
        .select(['token', 'parent', 'pool', 'price'])
        .orderBy('token')
        .execute()
      const usd = await readTokenPrices({
        db: store.store.db,
        chain,
        assets: rows.map((r) => r.token as Address),
      })
      return rows.map((r) => ({ ...r, usd: usd.get(r.token as Address)?.priceUsd }))
    }
    const expected = await routes(clean)
    expect(expected.length).toBeGreaterThan(3)
    for (const side of sides) {
      const got = await routes(side.store)
      expect(got.map(({ price, usd, ...r }) => r)).toEqual(
        expected.map(({ price, usd, ...r }) => r),
      )
      for (const [i, r] of got.entries()) {
        const e = expected[i]!
        expect(close(r.price, e.price, 1e-12) && close(r.usd!, e.usd!, 1e-12), r.token).toBe(true)
      }
    }
  } finally {
    await clean.drop()
  }
}, 600_000)
