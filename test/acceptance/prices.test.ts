import { type Abi, type Address, erc20Abi, parseAbi, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ChainConfig } from '../../src/config/types.ts'
import { loadArtifact } from '../../src/dev/artifacts.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { fromU256 } from '../../src/store/u256.ts'
import { createDeliveryWorker } from '../../src/webhooks/createDeliveryWorker.ts'
import {
  createPriceWorld,
  DEADLINE,
  type PriceWorld,
  priceWorldChain,
} from '../support/createPriceWorld.ts'
import { createTestApi, type TestApi } from '../support/createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from '../support/createTestStore.ts'
import { createWebhookReceiver, subscribe } from '../support/createWebhookReceiver.ts'
import { runIndexer } from '../support/testChain.ts'

// Prices from onchain liquidity, checked against the pools' own quoters, on SQLite and
// PostgreSQL: one anvil chain, one indexer per store following it.
const CHAIN_ID = 1
const HOUR = 3600
let anvil: Anvil
let w: PriceWorld
let chain: ChainConfig
type Side = {
  store: TestStore
  api: TestApi
  run: ReturnType<typeof runIndexer>
  receiver: Awaited<ReturnType<typeof createWebhookReceiver>>
  worker: AbortController
}
const sides: Side[] = []

const v2Pair = loadArtifact('UniswapV2Pair').abi
const v2Router = loadArtifact('UniswapV2Router02').abi
const swapRouterAbi = loadArtifact('SwapRouter').abi
const quoterAbi = loadArtifact('QuoterV2').abi

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID })
  w = await createPriceWorld(anvil)
  chain = priceWorldChain({ anvil, w })
  for (const dialect of DIALECTS) {
    const store = await createTestStore(dialect)
    const run = runIndexer({
      indexer: createChainIndexer({ chain, store: store.store, logger: silentLogger() }),
      store: store.store,
    })
    const api = await createTestApi({
      store: store.store,
      chains: [chain],
      overrides: { webhookUrls: { allowHttp: true, allowPrivate: true } },
    })
    const receiver = await createWebhookReceiver()
    const worker = new AbortController()
    void createDeliveryWorker({
      store: store.store,
      meter: api.ctx.meter,
      logger: silentLogger(),
      allowHttp: true,
      allowPrivate: true,
      pollIntervalMs: 20,
    }).run(worker.signal)
    for (const type of ['balances', 'activities']) {
      await subscribe({
        api,
        body: { webhook_url: receiver.url, type, chain_ids: [CHAIN_ID], addresses: [w.trader] },
      })
    }
    sides.push({ store, api, run, receiver, worker })
  }
  await synced()
}, 240_000)

afterAll(async () => {
  for (const s of sides) {
    s.worker.abort()
    await s.receiver.close()
    await s.run.stop().catch(() => undefined)
    await s.api.close()
    await s.store.drop()
  }
  await anvil?.stop()
})

/** Waits until every store has indexed the node's head. */
async function synced() {
  const head = Number(await w.pub.getBlockNumber({ cacheTime: 0 }))
  for (const s of sides) await s.run.synced({ block: head, timeoutMs: 120_000 })
}

async function tokenInfo(api: TestApi, token: Address | 'native', query = '') {
  const res = await api.get(`/v1/evm/token-info/${token}?chain_ids=${CHAIN_ID}${query}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.tokens[0]
}

/** USDC out for one whole `token` along a V2 route (router.getAmountsOut, fee included). */
async function quoteV2(path: Address[], amountIn: bigint): Promise<bigint> {
  const amounts = (await w.pub.readContract({
    address: w.v2Router,
    abi: v2Router,
    functionName: 'getAmountsOut',
    args: [amountIn, path],
  })) as bigint[]
  return amounts.at(-1)!
}

/** The trader buys TKA with `usdcIn` (6 decimals) in the V3 TKA/USDC pool (fee 0.3 %). */
function buyTkaInV3(usdcIn: bigint) {
  return w.send({
    to: w.swapRouter,
    abi: swapRouterAbi,
    functionName: 'exactInputSingle',
    args: [
      {
        tokenIn: w.usdc,
        tokenOut: w.tka,
        fee: 3000,
        recipient: w.trader,
        deadline: DEADLINE,
        amountIn: usdcIn,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n,
      },
    ],
    from: w.trader,
  })
}

async function quoteV3(tokenIn: Address, tokenOut: Address, fee: number, amountIn: bigint) {
  const { result } = await w.pub.simulateContract({
    address: w.quoter,
    abi: quoterAbi,
    functionName: 'quoteExactInputSingle',
    args: [{ tokenIn, tokenOut, amountIn, fee, sqrtPriceLimitX96: 0n }],
  })
  return (result as readonly [bigint, ...unknown[]])[0]
}

const within = (actual: number, expected: number, tolerance: number) =>
  expect(Math.abs(actual / expected - 1), `${actual} vs ${expected}`).toBeLessThan(tolerance)

describe.each(DIALECTS.map((d, i) => [d, i] as const))('prices (%s)', (_dialect, index) => {
  const api = () => sides[index]!.api

  test('every token is priced within 1 % of its route quoter, through the deepest pool', async () => {
    // TKA: deep V2 TKA/USDC (the shallow V3 pool at $2.50 and the rogue factory's pool lose).
    const tka = await tokenInfo(api(), w.tka)
    within(tka.price_usd, Number(await quoteV2([w.tka, w.usdc], 10n ** 18n)) / 1e6, 0.01)
    within(tka.price_usd, 2, 0.01)
    // WETH and the native asset: V2 WETH/USDC.
    const weth = await tokenInfo(api(), w.weth)
    within(weth.price_usd, Number(await quoteV2([w.weth, w.usdc], 10n ** 16n)) / 1e4, 0.01)
    const native = await tokenInfo(api(), 'native')
    expect(native.price_usd).toBe(weth.price_usd)
    // TKB: only through WETH (V3 TKB/WETH, then WETH's own route).
    const tkb = await tokenInfo(api(), w.tkb)
    const wethOut = await quoteV3(w.tkb, w.weth, 3000, 10n ** 18n)
    within(tkb.price_usd, Number(await quoteV2([w.weth, w.usdc], wethOut)) / 1e6, 0.01)
    // TKC: one thin pool (8 decimals).
    const tkc = await tokenInfo(api(), w.tkc)
    within(tkc.price_usd, Number(await quoteV2([w.tkc, w.usdc], 10n ** 6n)) / 1e4, 0.01)
    // DUST's only pool is below the minimum liquidity: no price at all.
    const dust = await tokenInfo(api(), w.dust)
    expect(dust.price_usd).toBeUndefined()
    expect(dust.pool_size).toBeUndefined()
    // USDC is the anchor.
    expect((await tokenInfo(api(), w.usdc)).price_usd).toBe(1)
  })

  test('pool_size is the pricing pool reserves × prices; fully_diluted_value is price × supply', async () => {
    const tka = await tokenInfo(api(), w.tka)
    const [r0, r1] = (await w.pub.readContract({
      address: w.pools.tkaUsdcV2,
      abi: v2Pair,
      functionName: 'getReserves',
    })) as readonly [bigint, bigint, number]
    const [tkaReserve, usdcReserve] = BigInt(w.tka) < BigInt(w.usdc) ? [r0, r1] : [r1, r0]
    const expected = (Number(tkaReserve) / 1e18) * tka.price_usd + Number(usdcReserve) / 1e6
    within(tka.pool_size, expected, 1e-9)
    const supply = await w.pub.readContract({
      address: w.tka,
      abi: erc20Abi,
      functionName: 'totalSupply',
    })
    within(tka.fully_diluted_value, (Number(supply) / 1e18) * tka.price_usd, 1e-9)
  })

  test('balances carry price, value, pool, low_liquidity; exclude_spam_tokens drops thin and unpriced', async () => {
    const res = await api().get(`/v1/evm/balances/${w.trader}?chain_ids=${CHAIN_ID}&metadata=pools`)
    expect(res.status).toBe(200)
    const rows = res.body.balances as any[]
    const row = (address: string) => rows.find((r) => r.address === address)
    const tka = row(w.tka)
    expect(tka.pool).toEqual({
      pool_type: 'uniswap_v2',
      address: w.pools.tkaUsdcV2,
      chain_id: CHAIN_ID,
      tokens: [w.tka, w.usdc].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
    })
    const balance = await w.pub.readContract({
      address: w.tka,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [w.trader],
    })
    within(tka.value_usd, (Number(balance) / 1e18) * tka.price_usd, 1e-9)
    expect(tka.low_liquidity).toBe(false)
    expect(row(w.tkb).pool.pool_type).toBe('uniswap_v3')
    expect(row(w.tkc).low_liquidity).toBe(true)
    expect(row(w.dust).price_usd).toBeUndefined()
    const native = row('native')
    expect(native.price_usd).toBeGreaterThan(0)
    expect(native.pool_size).toBeUndefined()
    // Ordered by value_usd descending, unpriced last.
    const values = rows.map((r) => r.value_usd ?? -1)
    expect(values).toEqual([...values].sort((a, b) => b - a))
    expect(rows.at(-1).address).toBe(w.dust)

    const clean = await api().get(
      `/v1/evm/balances/${w.trader}?chain_ids=${CHAIN_ID}&exclude_spam_tokens`,
    )
    const addresses = clean.body.balances.map((r: any) => r.address)
    expect(addresses).not.toContain(w.dust)
    expect(addresses).toContain(w.tkc)
    expect(addresses).toContain('native')
  })
})

describe('prices move with the pools', () => {
  test('an approval has no USD value: an allowance is not an amount that moved', async () => {
    const { transactionHash } = await w.send({
      to: w.tka,
      abi: erc20Abi,
      functionName: 'approve',
      args: [w.deployer, 2n ** 256n - 1n],
      from: w.trader,
    })
    await synced()
    for (const s of sides) {
      const res = await s.api.get(
        `/v1/evm/activity/${w.trader}?chain_ids=${CHAIN_ID}&activity_type=approve&limit=20`,
      )
      const [item] = (res.body.activity as any[]).filter((i) => i.tx_hash === transactionHash)
      expect(item.token_metadata.price_usd).toBeGreaterThan(0)
      expect(item.value).toBe((2n ** 256n - 1n).toString())
      expect(item.value_usd).toBeUndefined()
    }
  })

  test('a thin pool with a manipulated price does not move the token; an unknown factory never counts', async () => {
    const before = await tokenInfo(sides[0]!.api, w.tka)
    // Push the shallow V3 TKA/USDC pool's price up about tenfold.
    await buyTkaInV3(30_000n * 10n ** 6n)
    await synced()
    for (const s of sides) {
      const after = await tokenInfo(s.api, w.tka)
      expect(after.price_usd).toBeCloseTo(before.price_usd, 12)
      const pools = await s.store.store.db
        .selectFrom('pools')
        .select(['address', 'trusted'])
        .where('address', '=', w.pools.rogueTkaUsdc)
        .execute()
      expect(pools).toEqual([{ address: w.pools.rogueTkaUsdc, trusted: 0 }])
    }
  })

  test('indexed from after the pools were made: a pool is trusted once its factory names it, and read at the batch', async () => {
    // No PairCreated/PoolCreated in range: the pools the next swaps touch are candidates
    // the indexer checks against their factory (getPair/getPool), then reads.
    const startBlock = Number(await w.pub.getBlockNumber({ cacheTime: 0 })) + 1
    const late = await createTestStore('sqlite')
    const run = runIndexer({
      indexer: createChainIndexer({
        chain: { ...chain, startBlock },
        store: late.store,
        logger: silentLogger(),
      }),
      store: late.store,
    })
    try {
      const swapped = [w.pools.tkaUsdcV2, w.pools.rogueTkaUsdc, w.pools.tkaUsdcV3]
      const { blockNumber } = await w.send({
        to: w.v2Router,
        abi: v2Router,
        functionName: 'swapExactTokensForTokens',
        args: [1_000n * 10n ** 18n, 0n, [w.tka, w.usdc], w.trader, DEADLINE],
        from: w.trader,
      })
      await w.send({
        to: w.pools.rogueTkaUsdc,
        abi: v2Pair,
        functionName: 'sync',
        args: [],
        from: w.trader,
      })
      await buyTkaInV3(10n * 10n ** 6n)
      const head = Number(await w.pub.getBlockNumber({ cacheTime: 0 }))
      await run.synced({ block: head, timeoutMs: 60_000 })
      await synced()
      const rows = await late.store.db
        .selectFrom('pools')
        .select(['address', 'trusted', 'reserve0', 'reserve1', 'sqrt_price_x96', 'block_number'])
        .where('address', 'in', swapped)
        .orderBy('address')
        .execute()
      expect(rows.map((r) => [r.address, r.trusted])).toEqual(
        swapped.map((a) => [a, a === w.pools.rogueTkaUsdc ? 0 : 1]).sort(),
      )
      // The V2 pair as the node has it at the block of the row.
      const v2 = rows.find((r) => r.address === w.pools.tkaUsdcV2)!
      expect(v2.block_number).toBeGreaterThanOrEqual(Number(blockNumber))
      const [r0, r1] = (await w.pub.readContract({
        address: w.pools.tkaUsdcV2,
        abi: v2Pair,
        functionName: 'getReserves',
        blockNumber: BigInt(v2.block_number),
      })) as readonly [bigint, bigint, number]
      expect([fromU256(v2.reserve0!), fromU256(v2.reserve1!)]).toEqual([r0, r1])
      expect(rows.find((r) => r.address === w.pools.tkaUsdcV3)!.sqrt_price_x96).not.toBeNull()
    } finally {
      await run.stop().catch(() => undefined)
      await late.drop()
    }
  })

  test('a pair created, funded and minted in batches of their own prices its new token', async () => {
    // The token first moves in a batch that touches no pool; the pool's Sync comes in a batch
    // where the token itself does not move: the graph must get its decimals from the store.
    const fresh = await w.token('Fresh', 'FRSH', 18)
    await w.send({
      to: fresh,
      abi: parseAbi(['function mint(address to, uint256 amount)']),
      functionName: 'mint',
      args: [w.deployer, 10n ** 24n],
    })
    await synced()
    const factoryAbi = loadArtifact('UniswapV2Factory').abi
    await w.send({
      to: w.v2Factory,
      abi: factoryAbi,
      functionName: 'createPair',
      args: [fresh, w.usdc],
    })
    await synced()
    const pair = (
      (await w.pub.readContract({
        address: w.v2Factory,
        abi: factoryAbi,
        functionName: 'getPair',
        args: [fresh, w.usdc],
      })) as string
    ).toLowerCase() as Address
    // 1,000 FRSH against 20,000 USDC: $20 each, a $40,000 pool.
    await w.send({
      to: fresh,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [pair, 1_000n * 10n ** 18n],
    })
    await w.send({
      to: w.usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [pair, 20_000n * 10n ** 6n],
    })
    await synced()
    await w.send({ to: pair, abi: v2Pair, functionName: 'mint', args: [w.deployer] })
    await synced()
    for (const s of sides) {
      const info = await tokenInfo(s.api, fresh)
      within(info.price_usd, 20, 1e-9)
      within(info.pool_size, 40_000, 1e-9)
    }
  })

  test('historical_prices=1,24 returns the prices of those hours', async () => {
    const rpc = (method: string, params: unknown[] = []) =>
      w.pub.request({ method: method as any, params: params as any })
    const price = async () => (await tokenInfo(sides[0]!.api, w.tka)).price_usd as number
    const sellTka = (amount: bigint) =>
      w.send({
        to: w.v2Router,
        abi: v2Router,
        functionName: 'swapExactTokensForTokens',
        args: [amount, 0n, [w.tka, w.usdc], w.trader, DEADLINE],
        from: w.trader,
      })
    const p0 = await price()
    await rpc('evm_increaseTime', [25 * HOUR])
    await sellTka(50_000n * 10n ** 18n)
    await synced()
    const p1 = await price()
    await rpc('evm_increaseTime', [Math.round(1.5 * HOUR)])
    await sellTka(50_000n * 10n ** 18n)
    await synced()
    const p2 = await price()
    expect(p1).toBeLessThan(p0)
    expect(p2).toBeLessThan(p1)
    for (const s of sides) {
      const tka = await tokenInfo(s.api, w.tka, '&historical_prices=1,24')
      expect(tka.price_usd).toBe(p2)
      expect(tka.historical_prices).toEqual([
        { offset_hours: 1, price_usd: p1 },
        { offset_hours: 24, price_usd: p0 },
      ])
      const res = await s.api.get(
        `/v1/evm/balances/${w.trader}?chain_ids=${CHAIN_ID}&historical_prices=24`,
      )
      const row = res.body.balances.find((r: any) => r.address === w.tka)
      expect(row.historical_prices).toEqual([{ offset_hours: 24, price_usd: p0 }])
      // The anchor is 1 while the chain has blocks, and unknown before its first (~27 h ago).
      const usd = await tokenInfo(s.api, w.usdc, '&historical_prices=1,24,1000')
      expect(usd.historical_prices).toEqual([
        { offset_hours: 1, price_usd: 1 },
        { offset_hours: 24, price_usd: 1 },
      ])
    }
  })

  test('a backfill answers historical prices as the indexer that followed the chain did', async () => {
    // The chain now spans ~27 hours (the test above); indexed from block 0 in the default
    // windows, batches must not span an hour's start, or the earlier hours lose their points.
    const late = await createTestStore('sqlite')
    const run = runIndexer({
      indexer: createChainIndexer({ chain, store: late.store, logger: silentLogger() }),
      store: late.store,
    })
    const api = await createTestApi({ store: late.store, chains: [chain] })
    try {
      const head = Number(await w.pub.getBlockNumber({ cacheTime: 0 }))
      await run.synced({ block: head, timeoutMs: 60_000 })
      for (const token of [w.tka, w.tkb, w.weth, w.usdc]) {
        for (const query of ['&historical_prices=1,2,3', '&historical_prices=24,26']) {
          const followed = await tokenInfo(sides[0]!.api, token, query)
          expect(followed.historical_prices.length).toBeGreaterThan(0)
          expect((await tokenInfo(api, token, query)).historical_prices, token).toEqual(
            followed.historical_prices,
          )
        }
      }
    } finally {
      await api.close()
      await run.stop().catch(() => undefined)
      await late.drop()
    }
  })
})

describe('swaps', () => {
  type Leg = { token: Address | 'native'; value: bigint }
  /** The trader's change of one asset across a transaction's block (gas added back for native). */
  async function delta(asset: Address | 'native', block: bigint, gas: bigint): Promise<bigint> {
    if (asset === 'native') {
      const [a, b] = await Promise.all([
        w.pub.getBalance({ address: w.trader, blockNumber: block - 1n }),
        w.pub.getBalance({ address: w.trader, blockNumber: block }),
      ])
      return b - a + gas
    }
    const read = (blockNumber: bigint) =>
      w.pub.readContract({
        address: asset,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [w.trader],
        blockNumber,
      })
    return (await read(block)) - (await read(block - 1n))
  }

  async function swapAndCheck(
    label: string,
    tx: { to: Address; abi: Abi; functionName: string; args: unknown[]; value?: bigint },
    gave: Address | 'native',
    got: Address | 'native',
  ) {
    const { blockNumber, transactionHash } = await w.send({ ...tx, from: w.trader })
    const receipt = await w.pub.getTransactionReceipt({ hash: transactionHash })
    const gas = receipt.gasUsed * receipt.effectiveGasPrice
    const from: Leg = { token: gave, value: -(await delta(gave, blockNumber, gas)) }
    const to: Leg = { token: got, value: await delta(got, blockNumber, gas) }
    await synced()
    for (const s of sides) {
      const res = await s.api.get(`/v1/evm/activity/${w.trader}?chain_ids=${CHAIN_ID}&limit=20`)
      const items = (res.body.activity as any[]).filter((i) => i.tx_hash === transactionHash)
      expect(
        items.map((i) => i.type),
        label,
      ).toEqual(['swap'])
      const [swap] = items
      expect(swap.from_token_address, label).toBe(from.token)
      expect(swap.from_token_value, label).toBe(from.value.toString())
      expect(swap.to_token_address, label).toBe(to.token)
      expect(swap.to_token_value, label).toBe(to.value.toString())
      if (from.token !== 'native') expect(swap.from_token_metadata.symbol).toBeTypeOf('string')
      expect(swap.value_usd, label).toBeGreaterThan(0)
      // The same item reaches an activities webhook; balance events carry USD values.
      const activities = () =>
        s.receiver.received
          .flatMap((r) => (r.body as { activities?: any[] }).activities ?? [])
          .filter((i) => i.tx_hash === transactionHash)
      await s.receiver.until(() => activities().length > 0)
      expect(activities(), label).toEqual([swap])
      const changes = () =>
        s.receiver.received
          .flatMap((r) => (r.body as { balance_changes?: any[] }).balance_changes ?? [])
          .filter((i) => i.transaction_hash === transactionHash)
      await s.receiver.until(() => changes().length >= 2)
      const given = changes().find(
        (c) => c.asset.token_address === from.token && c.direction === 'out',
      )
      expect(given?.price_usd, label).toBeGreaterThan(0)
      expect(given?.value_delta_usd, label).toBeLessThan(0)
    }
  }

  test('V2 router, single hop', () =>
    swapAndCheck(
      'v2 tka→usdc',
      {
        to: w.v2Router,
        abi: v2Router,
        functionName: 'swapExactTokensForTokens',
        args: [10n ** 20n, 0n, [w.tka, w.usdc], w.trader, DEADLINE],
      },
      w.tka,
      w.usdc,
    ))

  test('V2 router, multi-hop from native ETH', () =>
    swapAndCheck(
      'v2 eth→weth→usdc→tka',
      {
        to: w.v2Router,
        abi: v2Router,
        functionName: 'swapExactETHForTokens',
        args: [0n, [w.weth, w.usdc, w.tka], w.trader, DEADLINE],
        value: parseEther('1'),
      },
      'native',
      w.tka,
    ))

  test('V2 router, to native ETH (internal transfer from the router)', () =>
    swapAndCheck(
      'v2 tkc→usdc→weth→eth',
      {
        to: w.v2Router,
        abi: v2Router,
        functionName: 'swapExactTokensForETH',
        args: [10n ** 8n, 0n, [w.tkc, w.usdc, w.weth], w.trader, DEADLINE],
      },
      w.tkc,
      'native',
    ))

  test('V3 SwapRouter, single hop', () =>
    swapAndCheck(
      'v3 tkb→weth',
      {
        to: w.swapRouter,
        abi: swapRouterAbi,
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn: w.tkb,
            tokenOut: w.weth,
            fee: 3000,
            recipient: w.trader,
            deadline: DEADLINE,
            amountIn: 1000n * 10n ** 18n,
            amountOutMinimum: 0n,
            sqrtPriceLimitX96: 0n,
          },
        ],
      },
      w.tkb,
      w.weth,
    ))

  test('V3 SwapRouter, multi-hop', () => {
    const path = `0x${[w.tkb, '000bb8', w.weth, '0001f4', w.usdc].map((p) => p.replace(/^0x/, '')).join('')}`
    return swapAndCheck(
      'v3 tkb→weth→usdc',
      {
        to: w.swapRouter,
        abi: swapRouterAbi,
        functionName: 'exactInput',
        args: [
          {
            path,
            recipient: w.trader,
            deadline: DEADLINE,
            amountIn: 500n * 10n ** 18n,
            amountOutMinimum: 0n,
          },
        ],
      },
      w.tkb,
      w.usdc,
    )
  })
})

describe('reorgs', () => {
  test('a reorg that drops a swap restores pool state, prices and activity', async () => {
    const price = async (api: TestApi) => (await tokenInfo(api, w.tka)).price_usd as number
    const before = await Promise.all(sides.map((s) => price(s.api)))
    const { transactionHash } = await w.send({
      to: w.v2Router,
      abi: v2Router,
      functionName: 'swapExactTokensForTokens',
      args: [100_000n * 10n ** 18n, 0n, [w.tka, w.usdc], w.trader, DEADLINE],
      from: w.trader,
    })
    await synced()
    for (const [i, s] of sides.entries()) expect(await price(s.api)).toBeLessThan(before[i]!)
    // Replace the swap's block with one holding a plain transfer.
    await w.pub.request({
      method: 'anvil_reorg' as never,
      params: [1, [[{ from: w.deployer, to: w.trader, value: '0x1' }, 0]]] as never,
    })
    const head = await w.pub.getBlock({ blockTag: 'latest' })
    const [r0, r1] = (await w.pub.readContract({
      address: w.pools.tkaUsdcV2,
      abi: v2Pair,
      functionName: 'getReserves',
    })) as readonly [bigint, bigint, number]
    for (const [i, s] of sides.entries()) {
      await s.run.synced({ block: Number(head.number), hash: head.hash, timeoutMs: 60_000 })
      expect(await price(s.api)).toBe(before[i])
      const pool = await s.store.store.db
        .selectFrom('pools')
        .select(['reserve0', 'reserve1'])
        .where('address', '=', w.pools.tkaUsdcV2)
        .executeTakeFirstOrThrow()
      const reserves = [pool.reserve0, pool.reserve1].map((r) => (r === null ? null : fromU256(r)))
      expect(reserves).toEqual([r0, r1])
      const res = await s.api.get(`/v1/evm/activity/${w.trader}?chain_ids=${CHAIN_ID}`)
      expect(res.body.activity.map((a: any) => a.tx_hash)).not.toContain(transactionHash)
    }
  })
})
