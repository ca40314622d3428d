import { type Abi, type Address, type Hex, parseAbi, zeroAddress } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { parseBlockNumbers } from '../../src/api/blockNumbersHeader.ts'
import type { ChainConfig } from '../../src/config/types.ts'
import { getSqrtRatioAtTick } from '../../src/defi/getSqrtRatioAtTick.ts'
import { anvilAccounts } from '../../src/dev/anvilAccounts.ts'
import { compileContracts } from '../../src/dev/compileContracts.ts'
import { type AnvilActions, createAnvilActions } from '../../src/dev/createAnvilActions.ts'
import { createPrng, type Prng } from '../../src/dev/createPrng.ts'
import {
  approveV4,
  deployUniswapV4,
  encodeV4Burn,
  encodeV4Decrease,
  encodeV4Mint,
  type PoolKey,
  type UniswapV4,
} from '../../src/dev/deployUniswapV4.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { erc20Abi } from '../../src/evm/abis.ts'
import { createPriceWorld, type PriceWorld, priceWorldChain } from '../support/createPriceWorld.ts'
import { createPublishedValidator } from '../support/publishedSchemas.ts'
import {
  type IndexedSide,
  startIndexedSides,
  stopIndexedSides,
  syncIndexedSides,
} from '../support/startIndexedSides.ts'

// Uniswap V4 position NFTs (an ERC20 pair and a native ether pair) as `NftV4` positions on
// both stores: every raw number equals what the PoolManager itself pays, measured by running
// the withdrawal inside evm_snapshot/evm_revert at the block of X-Scry-Block-Numbers: the token
// deltas of DECREASE_LIQUIDITY(0) + TAKE_PAIR are the fees, then of DECREASE_LIQUIDITY(all) +
// TAKE_PAIR the principal, paid to a fresh address so gas never blurs an ether amount.
const SEED = Number(process.env.SCRY_DEFI_SEED ?? Date.now() % 100_000)
const CHAIN_ID = 1
const DEADLINE = 2n ** 48n
const ERC721 = parseAbi([
  'function transferFrom(address from, address to, uint256 id)',
  'function ownerOf(uint256 id) view returns (address)',
])

let anvil: Anvil
let w: PriceWorld
let actions: AnvilActions
let v4: UniswapV4
let chain: ChainConfig
let prng: Prng
let erc20: Abi
let pairKey: PoolKey
let etherKey: PoolKey
/** Token id → its pool key, for every NFT ever minted. */
const minted = new Map<bigint, PoolKey>()
/** Token id → its ticks. */
const ticksOf = new Map<bigint, { tickLower: number; tickUpper: number }>()
const lps = anvilAccounts(8)
  .slice(4)
  .map((a) => a.address.toLowerCase() as Address)
const sides: { dialect: string; side: IndexedSide }[] = []
const validator = createPublishedValidator()
const synced = () => syncIndexedSides(sides, w.pub)

beforeAll(async () => {
  console.log(`defi uniswap v4: seed ${SEED} (SCRY_DEFI_SEED=${SEED} repeats it)`)
  prng = createPrng(SEED)
  anvil = await startAnvil({ chainId: CHAIN_ID })
  w = await createPriceWorld(anvil)
  // PositionManager's creation takes more gas than the default.
  actions = createAnvilActions({ rpcUrl: anvil.rpcUrl, gas: 15_000_000n })
  erc20 = (await compileContracts()).DemoERC20.abi
  v4 = await deployUniswapV4({ actions, from: w.deployer, weth: w.weth })
  for (const lp of [...lps, w.trader, w.deployer]) {
    for (const token of [w.usdc, w.tka]) {
      await actions.send({
        from: w.deployer,
        to: token,
        abi: erc20,
        functionName: 'mint',
        args: [lp, 10n ** 30n],
      })
      await approveV4({ actions, v4, owner: lp, token })
    }
  }
  const [c0, c1] = [w.usdc, w.tka].sort() as [Address, Address]
  pairKey = { currency0: c0, currency1: c1, fee: 3000, tickSpacing: 60, hooks: zeroAddress }
  etherKey = {
    currency0: zeroAddress,
    currency1: w.usdc,
    fee: 500,
    tickSpacing: 10,
    hooks: zeroAddress,
  }
  // TKA ≈ $2 (1e18 raw = 2e6 raw USDC), ether ≈ $2,000 (1e18 wei = 2e9 raw USDC).
  await initialize(pairKey, c0 === w.usdc ? 1e18 / 2e6 : 2e6 / 1e18)
  await initialize(etherKey, 2e9 / 1e18)

  // Deep wide liquidity of the deployer (never asked about) keeps swaps near the price.
  for (const key of [pairKey, etherKey]) await mintBase(key)
  for (let i = 0; i < 10; i++)
    await mintRandom(prng.pick(lps), prng.chance(0.5) ? pairKey : etherKey)
  for (let i = 0; i < 8; i++) await swapRandom(prng.chance(0.5) ? pairKey : etherKey)
  chain = priceWorldChain({
    anvil,
    w,
    defi: {
      v3Managers: [],
      v2Protocols: {},
      vaults: [],
      v4Managers: [
        {
          positionManager: v4.positionManager,
          poolManager: v4.poolManager,
          stateView: v4.stateView,
          protocol: 'UniswapV4',
        },
      ],
    },
  })
  sides.push(...(await startIndexedSides(chain)))
  await synced()
}, 300_000)

afterAll(async () => {
  await stopIndexedSides(sides)
  await anvil?.stop()
})

/** Pool ids as the PoolManager's `Initialize` event names them (topic 1). */
const poolIds = new Map<PoolKey, Hex>()

async function initialize(key: PoolKey, rawPrice: number) {
  const tick = Math.round(Math.log(rawPrice) / Math.log(1.0001))
  const { blockHash } = await actions.send({
    from: w.deployer,
    to: v4.positionManager,
    abi: v4.abis.positionManager,
    functionName: 'initializePool',
    args: [key, getSqrtRatioAtTick(tick)],
  })
  const [log] = await w.pub.getLogs({ address: v4.poolManager, blockHash })
  poolIds.set(key, log!.topics[1]!)
}

async function currentTick(key: PoolKey): Promise<number> {
  const [, tick] = await actions.call<readonly [bigint, number]>({
    to: v4.stateView,
    abi: v4.abis.stateView,
    functionName: 'getSlot0',
    args: [poolIds.get(key)!],
  })
  return tick
}

/** A range below, around or above the current tick, of random width and liquidity. */
async function mintRandom(owner: Address, key: PoolKey) {
  const s = key.tickSpacing
  const at = Math.floor((await currentTick(key)) / s) * s
  const width = prng.between(2, 40) * s
  const offset = prng.pick([
    -width - prng.between(1, 20) * s,
    -prng.between(1, width / s - 1) * s,
    prng.between(1, 20) * s,
  ])
  await mint(owner, key, at + offset, at + offset + width)
}

async function mint(owner: Address, key: PoolKey, tickLower: number, tickUpper: number) {
  const liquidity = BigInt(prng.between(1, 100)) * (key === etherKey ? 10n ** 13n : 10n ** 14n)
  const id = await actions.call<bigint>({
    to: v4.positionManager,
    abi: v4.abis.positionManager,
    functionName: 'nextTokenId',
  })
  await actions.send({
    from: owner,
    to: v4.positionManager,
    abi: v4.abis.positionManager,
    functionName: 'modifyLiquidities',
    args: [encodeV4Mint({ key, tickLower, tickUpper, liquidity, owner }), DEADLINE],
    // Ether beyond what the mint takes is swept back.
    ...(key === etherKey ? { value: 10n ** 20n } : {}),
  })
  minted.set(id, key)
  ticksOf.set(id, { tickLower, tickUpper })
}

async function mintBase(key: PoolKey) {
  const s = key.tickSpacing
  const at = Math.floor((await currentTick(key)) / s) * s
  await actions.send({
    from: w.deployer,
    to: v4.positionManager,
    abi: v4.abis.positionManager,
    functionName: 'modifyLiquidities',
    args: [
      encodeV4Mint({
        key,
        tickLower: at - 500 * s,
        tickUpper: at + 500 * s,
        liquidity: key === etherKey ? 10n ** 15n : 10n ** 16n,
        owner: w.deployer,
      }),
      DEADLINE,
    ],
    ...(key === etherKey ? { value: 10n ** 21n } : {}),
  })
}

async function swapRandom(key: PoolKey) {
  const zeroForOne = prng.chance(0.5)
  const amountIn =
    key === etherKey
      ? zeroForOne
        ? BigInt(prng.between(1, 50)) * 10n ** 16n
        : BigInt(prng.between(1, 50)) * 10n ** 7n
      : zeroForOne === (key.currency0 === w.usdc)
        ? BigInt(prng.between(1, 50)) * 10n ** 5n
        : BigInt(prng.between(1, 50)) * 10n ** 17n
  await actions.send({
    from: w.trader,
    to: v4.swapRouter,
    abi: v4.abis.swapRouter,
    functionName: 'swap',
    args: [
      key,
      {
        zeroForOne,
        amountSpecified: -amountIn,
        // At most 100 spacings away, so the price never runs off to a bound.
        sqrtPriceLimitX96: getSqrtRatioAtTick(
          (await currentTick(key)) + (zeroForOne ? -100 : 100) * key.tickSpacing,
        ),
      },
      { takeClaims: false, settleUsingBurn: false },
      '0x',
    ],
    ...(key === etherKey && zeroForOne ? { value: amountIn } : {}),
  })
}

async function ownerOf(id: bigint): Promise<Address | undefined> {
  return actions
    .call<Address>({ to: v4.positionManager, abi: ERC721, functionName: 'ownerOf', args: [id] })
    .then((o) => o.toLowerCase() as Address)
    .catch(() => undefined)
}

/** What a withdrawal pays, read from the chain's own accounting inside a rolled-back run. */
async function withdrawal(id: bigint, owner: Address) {
  const key = minted.get(id)!
  const liquidity = await actions.call<bigint>({
    to: v4.positionManager,
    abi: v4.abis.positionManager,
    functionName: 'getPositionLiquidity',
    args: [id],
  })
  return actions.rollback(async () => {
    const recipient = `0x${'de'.repeat(18)}${id.toString(16).padStart(4, '0')}` as Address
    const held = async () =>
      Promise.all(
        [key.currency0, key.currency1].map((c) =>
          c === zeroAddress
            ? w.pub.getBalance({ address: recipient })
            : (w.pub.readContract({
                address: c,
                abi: erc20Abi,
                functionName: 'balanceOf',
                args: [recipient],
              }) as Promise<bigint>),
        ),
      )
    const before = await held()
    const modify = (liquidityOut: bigint) =>
      actions.send({
        from: owner,
        to: v4.positionManager,
        abi: v4.abis.positionManager,
        functionName: 'modifyLiquidities',
        args: [
          encodeV4Decrease({ key, tokenId: id, liquidity: liquidityOut, recipient }),
          DEADLINE,
        ],
      })
    await modify(0n)
    const afterFees = await held()
    await modify(liquidity)
    const afterAll = await held()
    return {
      liquidity,
      fees: [afterFees[0]! - before[0]!, afterFees[1]! - before[1]!],
      principal: [afterAll[0]! - afterFees[0]!, afterAll[1]! - afterFees[1]!],
    }
  })
}

/** Price and decimals as the token-info endpoint gives them (ether: as WETH). */
async function tokenInfo(side: IndexedSide, token: Address) {
  const asked = token === zeroAddress ? w.weth : token
  const res = await side.api.get(`/v1/evm/token-info/${asked}?chain_ids=${CHAIN_ID}`)
  expect(res.status).toBe(200)
  const info = res.body.tokens[0]
  return { price: info.price_usd as number, decimals: token === zeroAddress ? 18 : info.decimals }
}

/** Every LP's NftV4 positions on both stores and shapes, against the PoolManager's payouts. */
async function expectPositionsMatchPools() {
  const truth = new Map<bigint, Awaited<ReturnType<typeof withdrawal>> & { owner: Address }>()
  for (const id of minted.keys()) {
    const owner = await ownerOf(id)
    if (owner) truth.set(id, { owner, ...(await withdrawal(id, owner)) })
  }
  // The indexers may have indexed blocks the rolled-back withdrawals mined: an empty block on
  // the real chain replaces them (a reorg to them) and changes no state the truth was read at.
  await w.pub.request({ method: 'evm_mine' as never, params: [] as never })
  await synced()
  const head = Number(await w.pub.getBlockNumber({ cacheTime: 0 }))
  let checked = 0
  for (const { dialect, side } of sides) {
    for (const lp of lps) {
      const v1 = await side.api.get(`/v1/evm/defi/positions/${lp}`)
      const beta = await side.api.get(`/beta/evm/defi/positions/${lp}`)
      expect(v1.status, JSON.stringify(v1.body)).toBe(200)
      expect(validator.validate('GET /v1/evm/defi/positions/{address}', v1.body)).toEqual([])
      expect(parseBlockNumbers(v1.headers.get('x-scry-block-numbers')).get(String(CHAIN_ID))).toBe(
        head,
      )
      const mine = [...truth].filter(([, t]) => t.owner === lp).map(([id]) => id)
      const got = v1.body.positions.filter((p: any) => p.type === 'NftV4')
      const ids = (list: bigint[]) => list.sort((a, b) => (a < b ? -1 : 1))
      expect(ids(got.map((p: any) => BigInt(p.salt))), `${dialect} ${lp}`).toEqual(ids(mine))
      for (const p of got) {
        const id = BigInt(p.salt)
        const key = minted.get(id)!
        const t = truth.get(id)!
        const label = `${dialect} ${lp} #${id} (seed ${SEED})`
        expect(p, label).toMatchObject({
          chain_id: CHAIN_ID,
          protocol: 'UniswapV4',
          pool: poolIds.get(key),
          pool_id: poolIds.get(key),
          pool_manager: v4.poolManager,
          hooks: zeroAddress,
          token0: { address: key.currency0 },
          token1: { address: key.currency1 },
          logo: null,
        })
        // The native side is named as the balances name it (anvil's chain: ETH).
        if (key.currency0 === zeroAddress)
          expect(p.token0, label).toEqual({
            address: zeroAddress,
            name: 'Ether',
            symbol: 'ETH',
            decimals: 18,
          })
        const [r] = p.positions
        expect(r, label).toMatchObject({
          token_id: `0x${id.toString(16)}`,
          liquidity: t.liquidity.toString(),
          token0: { holdings_raw: t.principal[0]!.toString(), rewards_raw: t.fees[0]!.toString() },
          token1: { holdings_raw: t.principal[1]!.toString(), rewards_raw: t.fees[1]!.toString() },
        })
        expect(r.in_range).toBe(
          r.tick_lower <= (await currentTick(key)) && (await currentTick(key)) < r.tick_upper,
        )
        let value = 0
        for (const [i, token] of [key.currency0, key.currency1].entries()) {
          const { price, decimals } = await tokenInfo(side, token)
          value += (Number(t.principal[i]! + t.fees[i]!) / 10 ** decimals) * price
        }
        expect(Math.abs(p.value_usd - value) / value, label).toBeLessThan(1e-9)
        const flat = beta.body.positions.find((x: any) => x.salt === p.salt)
        expect(flat, label).toMatchObject({
          type: 'NftV4',
          pool_id: p.pool_id,
          usd_value: p.value_usd,
          token0: key.currency0,
          positions: [
            {
              token_id: r.token_id,
              token0_holdings_raw: r.token0.holdings_raw,
              token0_rewards_raw: r.token0.rewards_raw,
              token1_holdings_raw: r.token1.holdings_raw,
              token1_rewards_raw: r.token1.rewards_raw,
            },
          ],
        })
        checked++
      }
    }
  }
  expect(checked).toBe(2 * truth.size)
  return truth
}

test('default', async () => {
  const truth = await expectPositionsMatchPools()
  // The world has in-range and out-of-range positions with fees in both pools.
  expect([...truth.values()].some((t) => t.fees[0]! > 0n || t.fees[1]! > 0n)).toBe(true)
  expect([...minted.values()]).toContain(etherKey)
  expect([...minted.values()]).toContain(pairKey)
}, 180_000)

test('behavior: swaps, a transfer and a burn move the positions', async () => {
  // Positions opened or touched after fees accrued start from a non-zero fee growth: half of
  // an earning position taken out (its fees collected), and a new one on its very ticks.
  const ids = [...minted.keys()]
  let halved: bigint | undefined
  let half = 0n
  for (const id of ids) {
    const t = await withdrawal(id, (await ownerOf(id))!)
    if (t.fees[0]! + t.fees[1]! > 0n) {
      halved = id
      half = t.liquidity / 2n
      break
    }
  }
  if (halved === undefined) throw new Error(`no position earned fees (seed ${SEED})`)
  const halver = (await ownerOf(halved))!
  const { tickLower, tickUpper } = ticksOf.get(halved)!
  await mint(prng.pick(lps), minted.get(halved)!, tickLower, tickUpper)
  await actions.send({
    from: halver,
    to: v4.positionManager,
    abi: v4.abis.positionManager,
    functionName: 'modifyLiquidities',
    args: [
      encodeV4Decrease({
        key: minted.get(halved)!,
        tokenId: halved,
        liquidity: half,
        recipient: halver,
      }),
      DEADLINE,
    ],
  })
  for (let i = 0; i < 8; i++) await swapRandom(prng.chance(0.5) ? pairKey : etherKey)
  const moved = ids[0]!
  const burned = ids[1]!
  const from = (await ownerOf(moved))!
  const to = lps.find((lp) => lp !== from)!
  await actions.send({
    from,
    to: v4.positionManager,
    abi: ERC721,
    functionName: 'transferFrom',
    args: [from, to, moved],
  })
  const burner = (await ownerOf(burned))!
  await actions.send({
    from: burner,
    to: v4.positionManager,
    abi: v4.abis.positionManager,
    functionName: 'modifyLiquidities',
    args: [
      encodeV4Burn({ key: minted.get(burned)!, tokenId: burned, recipient: burner }),
      DEADLINE,
    ],
  })
  await synced()
  const truth = await expectPositionsMatchPools()
  expect(truth.get(moved)?.owner).toBe(to)
  expect(truth.has(burned)).toBe(false)
}, 180_000)

test('behavior: a mint undone by a reorg is gone', async () => {
  const before = Number(await w.pub.getBlockNumber({ cacheTime: 0 }))
  const lp = lps[0]!
  await mintRandom(lp, pairKey)
  const id = [...minted.keys()].at(-1)!
  await synced()
  for (const { side } of sides) {
    const res = await side.api.get(`/v1/evm/defi/positions/${lp}`)
    expect(res.body.positions.map((p: any) => p.salt)).toContain(
      `0x${id.toString(16).padStart(64, '0')}`,
    )
  }
  const depth = Number(await w.pub.getBlockNumber({ cacheTime: 0 })) - before
  await w.pub.request({
    method: 'anvil_reorg' as never,
    params: [depth, [[{ from: w.deployer, to: w.trader, value: '0x1' }, 0]]] as never,
  })
  minted.delete(id)
  await synced()
  await expectPositionsMatchPools()
}, 180_000)

test('behavior: supported-protocols lists the uniswap_v4 family', async () => {
  for (const { side } of sides) {
    const res = await side.api.get('/v1/evm/defi/supported-protocols')
    expect(res.body.protocol_families.find((f: any) => f.family === 'uniswap_v4')).toEqual({
      family: 'uniswap_v4',
      chains: [{ chain_id: CHAIN_ID, chain_name: 'ethereum', status: 'stable' }],
      sub_protocols: ['UniswapV4'],
    })
  }
})
