import { type Abi, decodeFunctionResult, encodeFunctionData } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from '../../src/defi/getSqrtRatioAtTick.ts'
import { readDefiPositions } from '../../src/defi/readDefiPositions.ts'
import type { DefiCandidate, UniswapV3Manager, UniswapV3Position } from '../../src/defi/types.ts'
import { anvilAccounts } from '../../src/dev/anvilAccounts.ts'
import { loadArtifact, UNISWAP_V3_POOL_INIT_CODE_HASH } from '../../src/dev/artifacts.ts'
import { compileContracts } from '../../src/dev/compileContracts.ts'
import { type AnvilActions, createAnvilActions } from '../../src/dev/createAnvilActions.ts'
import { createPrng, type Prng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createRpcClient, type RpcClient } from '../../src/evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../../src/evm/types.ts'
import { deployV2Pair } from '../support/deployV2Pair.ts'

// Uniswap V3 position NFTs valued by readDefiPositions must equal the position manager's own
// answers at the same block hash, eth_called from the owner: decreaseLiquidity(all) for the
// principal, collect(max) for fees + tokensOwed, and both in one multicall.
const SEED = Number(process.env.SCRY_DEFI_SEED ?? Date.now() % 100_000)
const DEADLINE = 2n ** 48n
const MAX = 2n ** 256n - 1n
const MAX128 = 2n ** 128n - 1n
const FEE = 3000
const SPACING = 60
const npmAbi = loadArtifact('NonfungiblePositionManager').abi
const poolAbi = loadArtifact('UniswapV3Pool').abi
const factoryAbi = loadArtifact('UniswapV3Factory').abi
const swapRouterAbi = loadArtifact('SwapRouter').abi
const v2PairAbi = loadArtifact('UniswapV2Pair').abi

let anvil: Anvil
let rpc: RpcClient
let chain: AnvilActions
let prng: Prng
let erc20: Abi
let token0: Address
let token1: Address
let factory: Address
let npm: Address
let swapRouter: Address
let pool: Address
let manager: UniswapV3Manager
/** Token id → current owner. */
const owners = new Map<bigint, Address>()
/** Token ids whose liquidity was partly taken out. */
const decreased = new Set<bigint>()
const [deployer, trader, ...lps] = anvilAccounts(6).map((a) => a.address) as [
  Address,
  Address,
  ...Address[],
]

beforeAll(async () => {
  console.log(`defi uniswap v3: seed ${SEED} (SCRY_DEFI_SEED=${SEED} repeats it)`)
  prng = createPrng(SEED)
  anvil = await startAnvil()
  rpc = createRpcClient({ urls: [anvil.rpcUrl] })
  chain = createAnvilActions({ rpcUrl: anvil.rpcUrl })
  const compiled = await compileContracts()
  erc20 = compiled.DemoERC20.abi
  const from = deployer
  const a = await chain.deploy({ from, artifact: compiled.DemoERC20, args: ['Token A', 'TKA', 18] })
  const b = await chain.deploy({ from, artifact: compiled.DemoERC20, args: ['Token B', 'TKB', 6] })
  ;[token0, token1] = BigInt(a) < BigInt(b) ? [a, b] : [b, a]
  const weth = await chain.deploy({ from, artifact: loadArtifact('WETH9') })
  factory = await chain.deploy({ from, artifact: loadArtifact('UniswapV3Factory') })
  npm = await chain.deploy({
    from,
    artifact: loadArtifact('NonfungiblePositionManager'),
    args: [factory, weth, deployer],
  })
  swapRouter = await chain.deploy({
    from,
    artifact: loadArtifact('SwapRouter'),
    args: [factory, weth],
  })
  manager = {
    address: npm,
    poolDeployer: factory,
    poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
  }
  for (const who of [trader, ...lps]) {
    for (const token of [token0, token1]) {
      await chain.send({
        from,
        to: token,
        abi: erc20,
        functionName: 'mint',
        args: [who, who === trader ? 10n ** 46n : 10n ** 36n],
      })
      for (const spender of [npm, swapRouter])
        await chain.send({
          from: who,
          to: token,
          abi: erc20,
          functionName: 'approve',
          args: [spender, MAX],
        })
    }
  }
  const startTick = prng.between(-200_000, 200_000)
  await chain.send({
    from,
    to: npm,
    abi: npmAbi,
    functionName: 'createAndInitializePoolIfNecessary',
    args: [token0, token1, FEE, getSqrtRatioAtTick(startTick) + BigInt(prng.int(1e9))],
  })
  pool = (
    await chain.call<Address>({
      to: factory,
      abi: factoryAbi,
      functionName: 'getPool',
      args: [token0, token1, FEE],
    })
  ).toLowerCase() as Address
  // Depth everywhere, so swaps reach their price limits.
  const full = Math.floor(MAX_TICK / SPACING) * SPACING
  await mint(lps[0]!, -full, full)
})

afterAll(async () => {
  rpc?.close()
  await anvil?.stop()
})

test('default', async () => {
  for (let i = 0; i < 8; i++) await mintAround(prng.pick(lps), 6000)
  for (let i = 0; i < 60; i++) await randomAction()
  // Fresh positions above, below and around the price, then swaps that stay inside them.
  const tick = await currentTick()
  const at = Math.floor(tick / SPACING) * SPACING
  await mint(lps[1]!, at + 600, at + 1200)
  await mint(lps[2]!, at - 1200, at - 600)
  await mint(lps[3]!, at - 600, at + 600)
  await decrease(BigInt(owners.size), 2n)
  for (let i = 0; i < 6; i++) await swapTo(at + prng.between(-240, 240))
  // One closed: all its liquidity out and everything collected (the NFT stays).
  const closing = [...owners.keys()].find((id) => id !== 1n)!
  await decrease(closing, 1n)
  await chain.send({
    from: owners.get(closing)!,
    to: npm,
    abi: npmAbi,
    functionName: 'collect',
    args: [
      { tokenId: closing, recipient: owners.get(closing)!, amount0Max: MAX128, amount1Max: MAX128 },
    ],
  })
  const checked = await checkAgainstManager()
  expect(checked.closed, `seed ${SEED}`).toBeGreaterThan(0)
  expect(checked.kinds.inRange, `seed ${SEED}`).toBeGreaterThan(0)
  expect(checked.kinds.onlyToken0, `seed ${SEED}`).toBeGreaterThan(0)
  expect(checked.kinds.onlyToken1, `seed ${SEED}`).toBeGreaterThan(0)
  expect(checked.kinds.partlyDecreased, `seed ${SEED}`).toBeGreaterThan(0)
  expect(checked.kinds.withFees, `seed ${SEED}`).toBeGreaterThan(0)
})

test('behavior: price exactly on a boundary tick', async () => {
  const tick = await currentTick()
  const at = Math.floor(tick / SPACING) * SPACING
  const lower = at - 300
  const upper = at + 360
  await mint(lps[0]!, lower, upper)
  await swapTo(at + 60)
  // Down onto the lower bound: the pool crosses it and its tick ends one below.
  await swapTo(lower, { exact: true })
  expect(await currentTick()).toBe(lower - 1)
  await checkAgainstManager()
  // Up onto the upper bound: the tick is the bound itself.
  await swapTo(upper, { exact: true })
  expect(await currentTick()).toBe(upper)
  await checkAgainstManager()
})

test('behavior: getSqrtRatioAtTick is the pool TickMath boundary', async () => {
  // A pool initialized at getSqrtRatioAtTick(t) is at tick t, one wei below at t − 1: so the
  // value is exactly the pool's own (any other would move one of the two).
  const fee = 500
  await chain.send({
    from: deployer,
    to: factory,
    abi: factoryAbi,
    functionName: 'createPool',
    args: [token0, token1, fee],
  })
  const fresh = (
    await chain.call<Address>({
      to: factory,
      abi: factoryAbi,
      functionName: 'getPool',
      args: [token0, token1, fee],
    })
  ).toLowerCase() as Address
  const tickAt = (sqrtPriceX96: bigint) =>
    chain.rollback(async () => {
      await chain.send({
        from: deployer,
        to: fresh,
        abi: poolAbi,
        functionName: 'initialize',
        args: [sqrtPriceX96],
      })
      return (
        await chain.call<[bigint, number]>({ to: fresh, abi: poolAbi, functionName: 'slot0' })
      )[1]
    })
  const ticks = [MIN_TICK, MIN_TICK + 1, -1, 0, 1, MAX_TICK - 1]
  for (let i = 0; i < 24; i++) ticks.push(prng.between(MIN_TICK + 1, MAX_TICK - 1))
  for (const t of ticks) {
    const ratio = getSqrtRatioAtTick(t)
    expect(await tickAt(ratio), `seed ${SEED} tick ${t}`).toBe(t)
    if (t > MIN_TICK) expect(await tickAt(ratio - 1n), `seed ${SEED} tick ${t}`).toBe(t - 1)
  }
})

test('behavior: skipped candidates', async () => {
  const [id] = [...owners.keys()]
  const from = owners.get(id!)!
  const to = lps.find((l) => l !== from)!
  await chain.send({
    from,
    to: npm,
    abi: npmAbi,
    functionName: 'transferFrom',
    args: [from, to, id],
  })
  owners.set(id!, to)
  const head = await chain.head()
  const candidates: DefiCandidate[] = [
    { type: 'uniswap_v3', owner: from, manager, tokenId: id! },
    { type: 'uniswap_v3', owner: to, manager, tokenId: 10_000n },
    { type: 'uniswap_v3', owner: to, manager: { ...manager, address: trader }, tokenId: id! },
    { type: 'uniswap_v3', owner: to, manager: { ...manager, poolDeployer: trader }, tokenId: id! },
  ]
  const result = await readDefiPositions({ rpc, ...head, candidates })
  expect(result.positions).toEqual([])
  expect(result.skipped.map((s) => s.reason)).toEqual([
    'not_owner',
    'read_failed',
    'read_failed',
    'read_failed',
  ])
  await checkAgainstManager()
})

test('behavior: all types in two rounds', async () => {
  // A V2 pair of the same tokens (liquidity minted straight at the pair) and an ERC4626 vault
  // next to the V3 positions: one read, two batched rounds for all of them.
  const compiled = await compileContracts()
  const [lp, holder] = [lps[0]!, lps[1]!]
  const { factory: v2Factory, pair } = await deployV2Pair({
    chain,
    deployer,
    tokenA: token0,
    tokenB: token1,
  })
  for (const token of [token0, token1]) {
    const amount = 10n ** BigInt(prng.between(18, 24)) + BigInt(prng.int(1e9))
    await chain.send({
      from: lp,
      to: token,
      abi: erc20,
      functionName: 'transfer',
      args: [pair, amount],
    })
  }
  await chain.send({ from: lp, to: pair, abi: v2PairAbi, functionName: 'mint', args: [lp] })
  const vault = await chain.deploy({
    from: deployer,
    artifact: compiled.DemoVault,
    args: [token0, 'Vault', 'v0', 3],
  })
  await chain.send({
    from: holder,
    to: token0,
    abi: erc20,
    functionName: 'approve',
    args: [vault, MAX],
  })
  const deposit = 10n ** BigInt(prng.between(18, 24)) + BigInt(prng.int(1e9))
  await chain.send({
    from: holder,
    to: vault,
    abi: compiled.DemoVault.abi,
    functionName: 'deposit',
    args: [deposit, holder],
  })
  await chain.send({
    from: lp,
    to: token0,
    abi: erc20,
    functionName: 'transfer',
    args: [vault, deposit / 7n],
  })

  const { blockNumber, blockHash } = await chain.head()
  // Rounds of reads: each goes as batched calls (a state override); the reads that failed in
  // them (the unknown factory's) are asked again alone, one more round trip where any did.
  let rounds = 0
  let trips = 0
  const counting: RpcClient = {
    ...rpc,
    batch: (calls, options) => {
      trips++
      if (calls.some((c) => (c.params as unknown[]).length > 2)) rounds++
      return rpc.batch(calls, options)
    },
  }
  const candidates: DefiCandidate[] = [
    { type: 'erc4626', owner: holder, vault, listed: false },
    ...[...owners].map(([tokenId, owner]) => ({
      type: 'uniswap_v3' as const,
      owner,
      manager,
      tokenId,
    })),
    { type: 'uniswap_v2', owner: lp, pair, factory: v2Factory },
    { type: 'uniswap_v2', owner: lp, pair, factory },
  ]
  const { positions, skipped } = await readDefiPositions({
    rpc: counting,
    blockNumber,
    blockHash,
    candidates,
  })
  expect(rounds).toBe(2)
  expect(trips).toBeLessThanOrEqual(4)
  // Closed NFTs (the default test closes at least one) are skipped as such.
  const open = skipped.filter((s) => s.reason !== 'closed')
  expect(open).toEqual([{ candidate: candidates.at(-1), reason: 'unknown_factory' }])
  const closed = new Set(skipped.filter((s) => s.reason === 'closed').map((s) => s.candidate))
  expect(positions.map((p) => p.type)).toEqual(
    candidates.slice(0, -1).flatMap((c) => (closed.has(c) ? [] : [c.type])),
  )

  const v2 = positions.find((p) => p.type === 'uniswap_v2')!
  // What the pair pays when the LP tokens are sent to it and burned, rolled back after.
  const paid = await chain.rollback(async () => {
    const balance = (token: Address) =>
      chain.call<bigint>({ to: token, abi: erc20, functionName: 'balanceOf', args: [lp] })
    const before = [await balance(token0), await balance(token1)]
    const lpBalance = await chain.call<bigint>({
      to: pair,
      abi: v2PairAbi,
      functionName: 'balanceOf',
      args: [lp],
    })
    await chain.send({
      from: lp,
      to: pair,
      abi: v2PairAbi,
      functionName: 'transfer',
      args: [pair, lpBalance],
    })
    await chain.send({ from: lp, to: pair, abi: v2PairAbi, functionName: 'burn', args: [lp] })
    return {
      amount0: (await balance(token0)) - before[0]!,
      amount1: (await balance(token1)) - before[1]!,
    }
  })
  expect({ amount0: v2.amount0, amount1: v2.amount1 }, `seed ${SEED}`).toEqual(paid)

  const shares = positions.find((p) => p.type === 'erc4626')!
  const redeemed = await chain.call<bigint>({
    from: holder,
    to: vault,
    abi: compiled.DemoVault.abi,
    functionName: 'redeem',
    args: [shares.shares, holder, holder],
    blockHash,
  })
  expect(shares.previewRedeem, `seed ${SEED}`).toBe(redeemed)
  await checkAgainstManager()
})

type Kinds = Record<
  'inRange' | 'onlyToken0' | 'onlyToken1' | 'partlyDecreased' | 'withFees',
  number
>

async function checkAgainstManager(): Promise<{ kinds: Kinds; closed: number }> {
  const { blockNumber, blockHash } = await chain.head()
  // Rounds of reads: each goes as batched calls (a state override); reads that fail in them
  // are asked again alone, one more round trip where any did.
  let rounds = 0
  let trips = 0
  const counting: RpcClient = {
    ...rpc,
    batch: (calls, options) => {
      trips++
      if (calls.some((c) => (c.params as unknown[]).length > 2)) rounds++
      return rpc.batch(calls, options)
    },
  }
  const candidates: DefiCandidate[] = [...owners].map(([tokenId, owner]) => ({
    type: 'uniswap_v3',
    owner,
    manager,
    tokenId,
  }))
  const { positions, skipped } = await readDefiPositions({
    rpc: counting,
    blockNumber,
    blockHash,
    candidates,
  })
  // Only closed NFTs are skipped, and the manager agrees they hold nothing.
  for (const { candidate, reason } of skipped) {
    const { tokenId } = candidate as { tokenId: bigint }
    expect(reason, `seed ${SEED}, token ${tokenId}`).toBe('closed')
    const [, , , , , , , liquidity] = await chain.call<bigint[]>({
      to: npm,
      abi: npmAbi,
      functionName: 'positions',
      args: [tokenId],
      blockHash,
    })
    const owner = owners.get(tokenId)!
    const collect = encodeFunctionData({
      abi: npmAbi,
      functionName: 'collect',
      args: [{ tokenId, recipient: owner, amount0Max: MAX128, amount1Max: MAX128 }],
    })
    expect([liquidity, ...(await callManager(owner, 'collect', collect, blockHash))]).toEqual([
      0n,
      0n,
      0n,
    ])
  }
  expect(rounds).toBe(2)
  expect(trips).toBeLessThanOrEqual(4)
  const kinds: Kinds = { inRange: 0, onlyToken0: 0, onlyToken1: 0, partlyDecreased: 0, withFees: 0 }
  const [, tick] = await chain.call<[bigint, number]>({
    to: pool,
    abi: poolAbi,
    functionName: 'slot0',
    blockHash,
  })
  for (const p of positions as UniswapV3Position[]) {
    const where = `seed ${SEED}, token ${p.tokenId}, block ${blockNumber}, tick ${tick} in [${p.tickLower}, ${p.tickUpper})`
    expect({ pool: p.pool, token0: p.token0, token1: p.token1 }, where).toEqual({
      pool,
      token0,
      token1,
    })
    const decrease = encodeFunctionData({
      abi: npmAbi,
      functionName: 'decreaseLiquidity',
      args: [
        {
          tokenId: p.tokenId,
          liquidity: p.liquidity,
          amount0Min: 0n,
          amount1Min: 0n,
          deadline: DEADLINE,
        },
      ],
    })
    const collect = encodeFunctionData({
      abi: npmAbi,
      functionName: 'collect',
      args: [{ tokenId: p.tokenId, recipient: p.owner, amount0Max: MAX128, amount1Max: MAX128 }],
    })
    const fees = await callManager(p.owner, 'collect', collect, blockHash)
    expect({ fees0: p.fees0, fees1: p.fees1 }, where).toEqual({ fees0: fees[0], fees1: fees[1] })
    if (p.liquidity === 0n) {
      expect({ amount0: p.amount0, amount1: p.amount1 }, where).toEqual({
        amount0: 0n,
        amount1: 0n,
      })
      continue
    }
    const principal = await callManager(p.owner, 'decreaseLiquidity', decrease, blockHash)
    expect({ amount0: p.amount0, amount1: p.amount1 }, where).toEqual({
      amount0: principal[0],
      amount1: principal[1],
    })
    // Decrease and collect in one call: collect then pays principal + fees.
    const [, both] = (await chain.call<readonly Hex[]>({
      from: p.owner,
      to: npm,
      abi: npmAbi,
      functionName: 'multicall',
      args: [[decrease, collect]],
      blockHash,
    })) as [Hex, Hex]
    const total = decodeFunctionResult({ abi: npmAbi, functionName: 'collect', data: both }) as [
      bigint,
      bigint,
    ]
    expect([p.amount0 + p.fees0, p.amount1 + p.fees1], where).toEqual(total)
    expect(p.inRange, where).toBe(p.tickLower <= tick && tick < p.tickUpper)
    if (p.inRange) kinds.inRange++
    else if (tick < p.tickLower) kinds.onlyToken0++
    else kinds.onlyToken1++
    // Fees earned since the manager last looked, beyond what it already owes.
    const [, , , , , , , , , , owed0, owed1] = await chain.call<bigint[]>({
      to: npm,
      abi: npmAbi,
      functionName: 'positions',
      args: [p.tokenId],
      blockHash,
    })
    if (decreased.has(p.tokenId)) kinds.partlyDecreased++
    if (p.fees0 > owed0! || p.fees1 > owed1!) kinds.withFees++
  }
  return { kinds, closed: skipped.length }
}

async function callManager(
  from: Address,
  functionName: 'collect' | 'decreaseLiquidity',
  data: Hex,
  blockHash: Hex,
) {
  const result = await chain.request<Hex>('eth_call', [{ from, to: npm, data }, { blockHash }])
  return decodeFunctionResult({ abi: npmAbi, functionName, data: result }) as [bigint, bigint]
}

async function currentTick(): Promise<number> {
  return (await chain.call<[bigint, number]>({ to: pool, abi: poolAbi, functionName: 'slot0' }))[1]
}

async function mint(owner: Address, tickLower: number, tickUpper: number): Promise<void> {
  // Small enough that no tick's liquidity passes maxLiquidityPerTick ('LO') at extreme prices.
  const amount = () => 10n ** BigInt(prng.between(18, 23)) + BigInt(prng.int(1e9))
  await chain.send({
    from: owner,
    to: npm,
    abi: npmAbi,
    functionName: 'mint',
    args: [
      {
        token0,
        token1,
        fee: FEE,
        tickLower,
        tickUpper,
        amount0Desired: amount(),
        amount1Desired: amount(),
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: owner,
        deadline: DEADLINE,
      },
    ],
  })
  owners.set(BigInt(owners.size + 1), owner)
}

async function mintAround(owner: Address, spread: number): Promise<void> {
  const tick = await currentTick()
  const center = Math.floor((tick + prng.between(-spread, spread)) / SPACING) * SPACING
  const half = prng.between(1, 40) * SPACING
  await mint(owner, center - half, center + half)
}

/** Moves the price towards `tick` (to its exact price with `exact`, else a little past it). */
async function swapTo(tick: number, { exact = false } = {}): Promise<void> {
  const now = await currentTick()
  if (tick === now) return
  const zeroForOne = tick < now
  const limit = getSqrtRatioAtTick(tick) + (exact ? 0n : BigInt(prng.int(1e6)))
  await chain.send({
    from: trader,
    to: swapRouter,
    abi: swapRouterAbi,
    functionName: 'exactInputSingle',
    args: [
      {
        tokenIn: zeroForOne ? token0 : token1,
        tokenOut: zeroForOne ? token1 : token0,
        fee: FEE,
        recipient: trader,
        deadline: DEADLINE,
        // Enough to reach the limit whatever the liquidity; the rest stays with the trader.
        amountIn: 10n ** 44n,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: limit,
      },
    ],
  })
}

/** Takes 1/`divisor` of a position's liquidity out, leaving it owed until collected. */
async function decrease(id: bigint, divisor: bigint): Promise<void> {
  const [, , , , , , , liquidity] = await chain.call<bigint[]>({
    to: npm,
    abi: npmAbi,
    functionName: 'positions',
    args: [id],
  })
  const part = liquidity! / divisor
  if (part === 0n) return
  await chain.send({
    from: owners.get(id)!,
    to: npm,
    abi: npmAbi,
    functionName: 'decreaseLiquidity',
    args: [{ tokenId: id, liquidity: part, amount0Min: 0n, amount1Min: 0n, deadline: DEADLINE }],
  })
  if (part < liquidity!) decreased.add(id)
}

async function randomAction(): Promise<void> {
  const roll = prng.next()
  const ids = [...owners.keys()]
  const id = prng.pick(ids)
  const owner = owners.get(id)!
  if (roll < 0.5) return swapTo((await currentTick()) + prng.between(-3000, 3000))
  if (roll < 0.6) return mintAround(prng.pick(lps), 3000)
  const [, , , , , , , liquidity] = await chain.call<bigint[]>({
    to: npm,
    abi: npmAbi,
    functionName: 'positions',
    args: [id],
  })
  // Token 1 is the full-range depth: swaps need liquidity at every price.
  if (roll < 0.75 && liquidity! > 0n && id !== 1n) {
    // Part of it, or now and then all of it: tokensOwed then holds principal too.
    await decrease(id, prng.chance(0.2) ? 1n : BigInt(prng.between(2, 50)))
    return
  }
  if (roll < 0.85) {
    // Collect some of what is owed (the manager pokes the pool first).
    const cap = () => (prng.chance(0.5) ? MAX128 : BigInt(prng.int(1e6)) + 1n)
    await chain.send({
      from: owner,
      to: npm,
      abi: npmAbi,
      functionName: 'collect',
      args: [{ tokenId: id, recipient: owner, amount0Max: cap(), amount1Max: cap() }],
    })
    return
  }
  if (liquidity! === 0n) return
  await chain.send({
    from: owner,
    to: npm,
    abi: npmAbi,
    functionName: 'increaseLiquidity',
    args: [
      {
        tokenId: id,
        amount0Desired: 10n ** 22n,
        amount1Desired: 10n ** 22n,
        amount0Min: 0n,
        amount1Min: 0n,
        deadline: DEADLINE,
      },
    ],
  })
}
