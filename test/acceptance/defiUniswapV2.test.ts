import { type Abi, maxUint256 } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { getV2FeeLiquidity } from '../../src/defi/getV2FeeLiquidity.ts'
import { readDefiPositions } from '../../src/defi/readDefiPositions.ts'
import type { DefiCandidate, UniswapV2Position } from '../../src/defi/types.ts'
import { anvilAccounts } from '../../src/dev/anvilAccounts.ts'
import { loadArtifact } from '../../src/dev/artifacts.ts'
import { compileContracts } from '../../src/dev/compileContracts.ts'
import { type AnvilActions, createAnvilActions } from '../../src/dev/createAnvilActions.ts'
import { createPrng, type Prng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createRpcClient, type RpcClient } from '../../src/evm/rpc/createRpcClient.ts'
import type { Address } from '../../src/evm/types.ts'
import { deployV2Pair } from '../support/deployV2Pair.ts'

// Uniswap V2 LP positions valued by readDefiPositions must equal what Router02.removeLiquidity
// pays (eth_call from the holder at the same block hash), with the protocol fee on and off.
const SEED = Number(process.env.SCRY_DEFI_SEED ?? Date.now() % 100_000)
const DEADLINE = 2n ** 48n
const MAX = maxUint256
const ZERO = '0x0000000000000000000000000000000000000000'
const factoryAbi = loadArtifact('UniswapV2Factory').abi
const pairAbi = loadArtifact('UniswapV2Pair').abi
const routerAbi = loadArtifact('UniswapV2Router02').abi

let anvil: Anvil
let rpc: RpcClient
let chain: AnvilActions
let prng: Prng
let erc20: Abi
let tka: Address
let tkb: Address
let factory: Address
let router: Address
let pair: Address
const [deployer, feeTo, trader, ...lps] = anvilAccounts(7).map((a) => a.address) as [
  Address,
  Address,
  Address,
  ...Address[],
]

beforeAll(async () => {
  console.log(`defi uniswap v2: seed ${SEED} (SCRY_DEFI_SEED=${SEED} repeats it)`)
  prng = createPrng(SEED)
  anvil = await startAnvil()
  rpc = createRpcClient({ urls: [anvil.rpcUrl] })
  chain = createAnvilActions({ rpcUrl: anvil.rpcUrl })
  const compiled = await compileContracts()
  erc20 = compiled.DemoERC20.abi
  const from = deployer
  tka = await chain.deploy({ from, artifact: compiled.DemoERC20, args: ['Token A', 'TKA', 18] })
  tkb = await chain.deploy({ from, artifact: compiled.DemoERC20, args: ['Token B', 'TKB', 6] })
  const weth = await chain.deploy({ from, artifact: loadArtifact('WETH9') })
  factory = await chain.deploy({ from, artifact: loadArtifact('UniswapV2Factory'), args: [from] })
  router = await chain.deploy({
    from,
    artifact: loadArtifact('UniswapV2Router02'),
    args: [factory, weth],
  })
  await chain.send({ from, to: factory, abi: factoryAbi, functionName: 'setFeeTo', args: [feeTo] })
  for (const who of [trader, ...lps]) {
    for (const [token, amount] of [
      [tka, 10n ** 30n],
      [tkb, 10n ** 20n],
    ] as const) {
      await chain.send({ from, to: token, abi: erc20, functionName: 'mint', args: [who, amount] })
      await chain.send({
        from: who,
        to: token,
        abi: erc20,
        functionName: 'approve',
        args: [router, MAX],
      })
    }
  }
  await addLiquidity(lps[0]!)
  pair = (
    await chain.call<Address>({
      to: factory,
      abi: factoryAbi,
      functionName: 'getPair',
      args: [tka, tkb],
    })
  ).toLowerCase() as Address
  // Holders approve the router for their LP tokens, so removeLiquidity can be eth_called.
  for (const who of [feeTo, ...lps])
    await chain.send({
      from: who,
      to: pair,
      abi: pairAbi,
      functionName: 'approve',
      args: [router, MAX],
    })
})

afterAll(async () => {
  rpc?.close()
  await anvil?.stop()
})

test('default', async () => {
  for (let i = 0; i < 40; i++) await randomAction()
  // Swaps after the last mint or burn: a protocol fee is pending.
  for (let i = 0; i < 3; i++) await swap()
  const checked = await checkAgainstRouter()
  expect(checked.feeLiquidity, `seed ${SEED}`).toBeGreaterThan(0n)
  expect(checked.compared, `seed ${SEED}`).toBeGreaterThanOrEqual(3)
  // The fee the pair mints on the next burn is the one valued above.
  const { blockHash } = await chain.head()
  const owner = lps[0]!
  const lp = await chain.call<bigint>({
    to: pair,
    abi: pairAbi,
    functionName: 'balanceOf',
    args: [owner],
  })
  const feeToBefore = await chain.call<bigint>({
    to: pair,
    abi: pairAbi,
    functionName: 'balanceOf',
    args: [feeTo],
  })
  const feeToAfter = await chain.rollback(async () => {
    await chain.send({
      from: owner,
      to: router,
      abi: routerAbi,
      functionName: 'removeLiquidity',
      args: [tka, tkb, lp, 0n, 0n, owner, DEADLINE],
    })
    return chain.call<bigint>({ to: pair, abi: pairAbi, functionName: 'balanceOf', args: [feeTo] })
  })
  expect(feeToAfter - feeToBefore, `seed ${SEED}`).toBe((await pairInputs(blockHash)).feeLiquidity)
})

test('behavior: tokens sent to the pair and not synced go to the burner', async () => {
  await swap()
  await chain.send({
    from: trader,
    to: tka,
    abi: erc20,
    functionName: 'transfer',
    args: [pair, BigInt(prng.between(1, 1000)) * 10n ** 18n],
  })
  const { blockHash } = await chain.head()
  const balance = await chain.call<bigint>({
    to: tka,
    abi: erc20,
    functionName: 'balanceOf',
    args: [pair],
    blockHash,
  })
  const [reserveA, reserveB] = await chain.call<[bigint, bigint]>({
    to: pair,
    abi: pairAbi,
    functionName: 'getReserves',
    blockHash,
  })
  expect(balance).not.toBe(BigInt(tka) < BigInt(tkb) ? reserveA : reserveB)
  await checkAgainstRouter()
})

test('behavior: fee off with kLast still set', async () => {
  await chain.send({
    from: deployer,
    to: factory,
    abi: factoryAbi,
    functionName: 'setFeeTo',
    args: [ZERO],
  })
  for (let i = 0; i < 3; i++) await swap()
  const kLast = await chain.call<bigint>({ to: pair, abi: pairAbi, functionName: 'kLast' })
  expect(kLast).toBeGreaterThan(0n)
  const checked = await checkAgainstRouter()
  expect(checked.feeLiquidity).toBe(0n)
  for (let i = 0; i < 10; i++) await randomAction()
  await checkAgainstRouter()
})

test('behavior: skipped candidates', async () => {
  const { blockNumber, blockHash } = await chain.head()
  const { pair: otherPair } = await deployV2Pair({ chain, deployer, tokenA: tka, tokenB: tkb })
  const head = await chain.head()
  const candidates: DefiCandidate[] = [
    { type: 'uniswap_v2', owner: lps[0]!, pair: otherPair, factory },
    { type: 'uniswap_v2', owner: lps[0]!, pair: trader, factory },
  ]
  const result = await readDefiPositions({ rpc, ...head, candidates })
  expect(result.positions).toEqual([])
  expect(result.skipped.map((s) => s.reason)).toEqual(['unknown_factory', 'read_failed'])
  // Before the pair existed at all.
  const before = await readDefiPositions({
    rpc,
    blockNumber,
    blockHash,
    candidates: candidates.slice(0, 1),
  })
  expect(before.skipped.map((s) => s.reason)).toEqual(['read_failed'])
})

async function checkAgainstRouter(): Promise<{ feeLiquidity: bigint; compared: number }> {
  const { blockNumber, blockHash } = await chain.head()
  const holders = [feeTo, ...lps]
  let rounds = 0
  const counting: RpcClient = {
    ...rpc,
    batch: (calls, options) => {
      rounds++
      return rpc.batch(calls, options)
    },
  }
  const { positions, skipped } = await readDefiPositions({
    rpc: counting,
    blockNumber,
    blockHash,
    candidates: holders.map((owner) => ({ type: 'uniswap_v2', owner, pair, factory })),
  })
  expect(skipped).toEqual([])
  expect(rounds).toBe(2)
  let compared = 0
  for (const p of positions as UniswapV2Position[]) {
    const where = `seed ${SEED}, holder ${p.owner}, block ${blockNumber}`
    expect([p.token0, p.token1], where).toEqual(BigInt(tka) < BigInt(tkb) ? [tka, tkb] : [tkb, tka])
    const removal = {
      from: p.owner,
      to: router,
      abi: routerAbi,
      functionName: 'removeLiquidity',
      args: [p.token0, p.token1, p.lpBalance, 0n, 0n, p.owner, DEADLINE],
      blockHash,
    }
    if (p.amount0 === 0n || p.amount1 === 0n) {
      // The pair refuses a burn that pays nothing of one token.
      await expect(chain.call(removal), where).rejects.toThrow(/INSUFFICIENT_LIQUIDITY_BURNED/)
      continue
    }
    const [amount0, amount1] = await chain.call<[bigint, bigint]>(removal)
    expect({ amount0: p.amount0, amount1: p.amount1 }, where).toEqual({ amount0, amount1 })
    compared++
  }
  return { feeLiquidity: (await pairInputs(blockHash)).feeLiquidity, compared }
}

/** The pending fee from the pair's state read at `blockHash`. */
async function pairInputs(blockHash: `0x${string}`) {
  const read = <T>(to: Address, abi: Abi, functionName: string) =>
    chain.call<T>({ to, abi, functionName, blockHash })
  const [reserve0, reserve1] = await read<[bigint, bigint]>(pair, pairAbi, 'getReserves')
  const feeOn = (await read<Address>(factory, factoryAbi, 'feeTo')) !== ZERO
  return {
    feeLiquidity: getV2FeeLiquidity({
      reserve0,
      reserve1,
      totalSupply: await read<bigint>(pair, pairAbi, 'totalSupply'),
      kLast: await read<bigint>(pair, pairAbi, 'kLast'),
      feeOn,
    }),
  }
}

async function randomAction(): Promise<void> {
  const roll = prng.next()
  if (roll < 0.3) return addLiquidity(prng.pick(lps))
  if (roll < 0.45) return removeSome(prng.pick(lps))
  return swap()
}

async function addLiquidity(who: Address): Promise<void> {
  const a = BigInt(prng.between(1, 100_000)) * 10n ** 18n + BigInt(prng.int(1e9))
  const b = BigInt(prng.between(1, 100_000)) * 10n ** 6n + BigInt(prng.int(1e6))
  await chain.send({
    from: who,
    to: router,
    abi: routerAbi,
    functionName: 'addLiquidity',
    args: [tka, tkb, a, b, 0n, 0n, who, DEADLINE],
  })
}

async function removeSome(who: Address): Promise<void> {
  const lp = await chain.call<bigint>({
    to: pair,
    abi: pairAbi,
    functionName: 'balanceOf',
    args: [who],
  })
  const part = (lp * BigInt(prng.between(1, 90))) / 100n
  if (part === 0n) return
  await chain.send({
    from: who,
    to: router,
    abi: routerAbi,
    functionName: 'removeLiquidity',
    args: [tka, tkb, part, 0n, 0n, who, DEADLINE],
  })
}

async function swap(): Promise<void> {
  const [token, other] = prng.chance(0.5) ? [tka, tkb] : [tkb, tka]
  const balance = await chain.call<bigint>({
    to: token,
    abi: erc20,
    functionName: 'balanceOf',
    args: [pair],
  })
  const amountIn = (balance * BigInt(prng.between(1, 300))) / 1000n + 1n
  await chain.send({
    from: trader,
    to: router,
    abi: routerAbi,
    functionName: 'swapExactTokensForTokens',
    args: [amountIn, 0n, [token, other], trader, DEADLINE],
  })
}
