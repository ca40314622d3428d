import { type Abi, type Address, maxUint256, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { parseBlockNumbers } from '../../src/api/blockNumbersHeader.ts'
import { readDefiCandidates } from '../../src/api/defi/readDefiCandidates.ts'
import type { ChainConfig } from '../../src/config/types.ts'
import { probeStoredTokens } from '../../src/defi/probeStoredTokens.ts'
import { anvilAccounts } from '../../src/dev/anvilAccounts.ts'
import { loadArtifact } from '../../src/dev/artifacts.ts'
import { compileContracts } from '../../src/dev/compileContracts.ts'
import { type AnvilActions, createAnvilActions } from '../../src/dev/createAnvilActions.ts'
import { deployAaveV2 } from '../../src/dev/deployAaveV2.ts'
import { type AaveMarket, deployAaveV3 } from '../../src/dev/deployAaveV3.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createRpcClient } from '../../src/evm/rpc/createRpcClient.ts'
import type { Hex } from '../../src/evm/types.ts'
import { createPriceWorld, type PriceWorld, priceWorldChain } from '../support/createPriceWorld.ts'
import { createTestApi } from '../support/createTestApi.ts'
import { createPublishedValidator } from '../support/publishedSchemas.ts'
import {
  type IndexedSide,
  startIndexedSides,
  stopIndexedSides,
  syncIndexedSides,
} from '../support/startIndexedSides.ts'

// Aave V3 and V2 supply and variable debt as `Tokenized` positions, on two markets of one
// chain (as on mainnet) deployed from `@aave/core-v3`'s and `@aave/protocol-v2`'s own
// artifacts. Every raw number equals the markets' own answers at the block of
// X-Scry-Block-Numbers (the data provider's `getUserReserveData`, the tokens'
// `scaledBalanceOf`, `getUserAccountData`, and what `withdraw(max)` pays as an eth_call from
// the owner), also after 30 days in which interest accrued without a single event.
const CHAIN_ID = 1
const MAX = maxUint256
const DAY = 24 * 60 * 60

/** A configured market: V2 and V3 deployments have the same shape. */
type Market = AaveMarket & { version: 2 | 3 }

let anvil: Anvil
let w: PriceWorld
let actions: AnvilActions
let chain: ChainConfig
let market: Market
let marketV2: Market
let markets: Market[]
let other: Market
let erc20: Abi
let lookalike: Address
const [alice, bob, carol, dave] = anvilAccounts(8)
  .slice(4)
  .map((a) => a.address.toLowerCase() as Address) as [Address, Address, Address, Address]
const holders = [alice, bob, carol, dave]
const sides: { dialect: string; side: IndexedSide }[] = []
const validator = createPublishedValidator()

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID })
  w = await createPriceWorld(anvil)
  actions = createAnvilActions({ rpcUrl: anvil.rpcUrl })
  const compiled = await compileContracts()
  erc20 = compiled.DemoERC20.abi
  const reserves = [
    { asset: w.usdc, decimals: 6, priceUsd8: 1_0000_0000n },
    { asset: w.weth, decimals: 18, priceUsd8: 2000_0000_0000n },
    { asset: w.tka, decimals: 18, priceUsd8: 2_0000_0000n },
  ].map((r) => ({ ...r, ltv: 8000, liquidationThreshold: 8500, borrowable: true }))
  market = { version: 3, ...(await deployAaveV3({ actions, from: w.deployer, reserves })) }
  // V2 prices in ETH (18 decimals): USDC 1/2000, WETH 1, TKA 2/2000.
  marketV2 = {
    version: 2,
    ...(await deployAaveV2({
      actions,
      from: w.deployer,
      reserves: reserves.map((r) => ({ ...r, priceEth18: (r.priceUsd8 * 10n ** 10n) / 2000n })),
    })),
  }
  markets = [market, marketV2]
  // A third market nobody configured: its tokens are found at ingest but never shown.
  other = {
    version: 3,
    ...(await deployAaveV3({ actions, from: w.deployer, reserves: reserves.slice(0, 1) })),
  }

  await fund(alice, w.usdc, parseUnits('20000', 6))
  await fund(bob, w.weth, parseEther('20'))
  await fund(bob, w.tka, parseEther('2000'))
  await fund(carol, w.tka, parseEther('80000'))
  await fund(carol, w.weth, parseEther('5'))
  await fund(dave, w.usdc, parseUnits('1000', 6))
  await supply(market, alice, w.usdc, parseUnits('5000', 6))
  await supply(marketV2, alice, w.usdc, parseUnits('6000', 6))
  await supply(market, bob, w.weth, parseEther('10'))
  await supply(market, bob, w.tka, parseEther('1000'))
  await supply(marketV2, bob, w.tka, parseEther('700'))
  await supply(market, carol, w.tka, parseEther('40000'))
  await supply(marketV2, carol, w.tka, parseEther('30000'))
  await supply(marketV2, carol, w.weth, parseEther('4'))
  await borrow(market, alice, w.weth, parseEther('1'))
  await borrow(market, carol, w.usdc, parseUnits('1500', 6))
  await borrow(market, carol, w.weth, parseEther('0.5'))
  await borrow(marketV2, carol, w.usdc, parseUnits('2500', 6))
  await borrow(marketV2, alice, w.weth, parseEther('0.2'))
  // dave supplies and withdraws everything: no position left; then supplies to the other market.
  await supply(market, dave, w.usdc, parseUnits('400', 6))
  await send(dave, market.pool, market.abis.pool, 'withdraw', [w.usdc, MAX, dave])
  await supply(other, dave, w.usdc, parseUnits('300', 6))
  // A token that names the configured pool and USDC but is not USDC's aToken there.
  lookalike = await actions.deploy({
    from: w.deployer,
    artifact: compiled.LookalikeAToken,
    args: [market.pool, w.usdc],
  })
  await send(w.deployer, lookalike, compiled.LookalikeAToken.abi, 'mint', [dave, 10n ** 24n])

  chain = priceWorldChain({
    anvil,
    w,
    defi: {
      v3Managers: [],
      v2Protocols: {},
      vaults: [],
      aaveV3Pools: [market.pool],
      aaveV2Pools: [marketV2.pool],
    },
  })
  sides.push(...(await startIndexedSides(chain)))
  await synced()
}, 240_000)

afterAll(async () => {
  await stopIndexedSides(sides)
  await anvil?.stop()
})

async function send(from: Address, to: Address, abi: Abi, functionName: string, args: unknown[]) {
  await w.send({ to, abi, functionName, args, from })
}

async function fund(holder: Address, token: Address, amount: bigint) {
  if (token === w.weth)
    await w.send({
      to: w.weth,
      abi: loadArtifact('WETH9').abi,
      functionName: 'deposit',
      value: amount,
      from: holder,
    })
  else await w.send({ to: token, abi: erc20, functionName: 'mint', args: [holder, amount] })
  for (const pool of [market.pool, marketV2.pool, other.pool])
    await send(holder, token, erc20, 'approve', [pool, MAX])
}

/** V3's `supply` is V2's `deposit` (same arguments). */
async function supply(m: Market, holder: Address, asset: Address, amount: bigint) {
  const verb = m.version === 2 ? 'deposit' : 'supply'
  await send(holder, m.pool, m.abis.pool, verb, [asset, amount, holder, 0])
}

async function borrow(m: Market, holder: Address, asset: Address, amount: bigint) {
  await send(holder, m.pool, m.abis.pool, 'borrow', [asset, amount, 2n, 0, holder])
}

const synced = () => syncIndexedSides(sides, w.pub)

async function blockHashOf(block: number): Promise<Hex> {
  return (await w.pub.getBlock({ blockNumber: BigInt(block) })).hash
}

/** Price and decimals as the token-info endpoint gives them. */
async function tokenInfo(side: IndexedSide, token: Address) {
  const res = await side.api.get(`/v1/evm/token-info/${token}?chain_ids=${CHAIN_ID}`)
  expect(res.status).toBe(200)
  const info = res.body.tokens[0]
  return { price: info.price_usd as number | undefined, decimals: info.decimals as number }
}

type Expected = {
  market: Market
  token: Address
  type: `AtokenV${2 | 3}` | `AaveV${2 | 3}VariableDebt`
  asset: Address
  scaled: bigint
  holdings: bigint
  healthFactor: number | null
}

/** What the markets themselves say a holder has at `blockHash`: one per non-zero balance. */
async function marketAnswers(holder: Address, blockHash: Hex) {
  const expected: Expected[] = []
  for (const m of markets) expected.push(...(await marketAnswersOf(m, holder, blockHash)))
  return expected
}

async function marketAnswersOf(market: Market, holder: Address, blockHash: Hex) {
  const { version } = market
  const account = await actions.call<readonly bigint[]>({
    to: market.pool,
    abi: market.abis.pool,
    functionName: 'getUserAccountData',
    args: [holder],
    blockHash,
  })
  const health = account[5]!
  const healthFactor = health === MAX ? null : Number(health) / 1e18
  const expected: Expected[] = []
  for (const [asset, reserve] of market.reserves) {
    const data = await actions.call<readonly bigint[]>({
      to: market.dataProvider,
      abi: market.abis.dataProvider,
      functionName: 'getUserReserveData',
      args: [asset, holder],
      blockHash,
    })
    const [aBalance, , variableDebt] = data as [bigint, bigint, bigint]
    const scaledOf = (token: Address) =>
      actions.call<bigint>({
        to: token,
        abi: market.abis.aToken,
        functionName: 'scaledBalanceOf',
        args: [holder],
        blockHash,
      })
    if (aBalance > 0n) {
      expected.push({
        market,
        token: reserve.aToken,
        type: `AtokenV${version}`,
        asset,
        scaled: await scaledOf(reserve.aToken),
        holdings: aBalance,
        healthFactor,
      })
    }
    if (variableDebt > 0n) {
      expected.push({
        market,
        token: reserve.variableDebt,
        type: `AaveV${version}VariableDebt`,
        asset,
        scaled: -(await scaledOf(reserve.variableDebt)),
        holdings: -variableDebt,
        healthFactor,
      })
    }
  }
  return expected
}

/** Every holder's Aave positions on both stores and both shapes, checked against the market. */
async function expectPositionsMatchMarket() {
  for (const { dialect, side } of sides) {
    for (const holder of holders) {
      const v1 = await side.api.get(`/v1/evm/defi/positions/${holder}`)
      const beta = await side.api.get(`/beta/evm/defi/positions/${holder}`)
      expect(v1.status, JSON.stringify(v1.body)).toBe(200)
      expect(beta.status, JSON.stringify(beta.body)).toBe(200)
      expect(validator.validate('GET /v1/evm/defi/positions/{address}', v1.body)).toEqual([])
      const block = parseBlockNumbers(v1.headers.get('x-scry-block-numbers')).get(String(CHAIN_ID))!
      const blockHash = await blockHashOf(block)
      const expected = await marketAnswers(holder, blockHash)
      const got = v1.body.positions.filter((p: any) => p.type === 'Tokenized')
      const label = `${dialect} ${holder}`
      expect(got.map((p: any) => p.token.address).sort(), label).toEqual(
        expected.map((e) => e.token).sort(),
      )
      let total = 0
      for (const e of expected) {
        const p = got.find((x: any) => x.token.address === e.token)
        const pool = e.market.pool
        const protocol = `AaveV${e.market.version}`
        expect(p, `${label} ${e.type}`).toMatchObject({
          chain_id: CHAIN_ID,
          protocol,
          pool,
          lending_pool: pool,
          token_type: e.type,
          balance_raw: e.scaled.toString(),
          underlying_token: { address: e.asset, holdings_raw: e.holdings.toString() },
          logo: null,
        })
        const { healthFactor } = e
        if (healthFactor === null) expect(p.health_factor, label).toBeNull()
        else expect(Math.abs(p.health_factor - healthFactor) / healthFactor).toBeLessThan(1e-12)
        const { price, decimals } = await tokenInfo(side, e.asset)
        expect(price, `${e.asset} is priced`).toBeGreaterThan(0)
        const value = (Number(e.holdings) / 10 ** decimals) * price!
        expect(Math.abs(p.value_usd - value) / Math.abs(value), label).toBeLessThan(1e-9)
        expect(Math.sign(p.value_usd)).toBe(e.type.startsWith('Atoken') ? 1 : -1)
        total += p.value_usd
        const flat = beta.body.positions.find((x: any) => x.token === e.token)
        expect(flat, label).toMatchObject({
          type: 'Tokenized',
          protocol,
          token_type: e.type,
          usd_value: p.value_usd,
          calculated_balance: p.balance,
          balance_raw: p.balance_raw,
          underlying_token: e.asset,
          holdings: p.underlying_token.holdings,
          holdings_raw: p.underlying_token.holdings_raw,
          lending_pool: pool,
          health_factor: p.health_factor,
        })
      }
      expect(v1.body.aggregations.total_value_usd).toBeCloseTo(total, 6)
      expect(beta.body.aggregations.total_usd_value).toBeCloseTo(total, 6)
    }
  }
}

/** What `withdraw(max)` pays the holder, as an eth_call from them at `blockHash`. */
async function withdrawAll(market: Market, holder: Address, asset: Address, blockHash: Hex) {
  return actions.call<bigint>({
    from: holder,
    to: market.pool,
    abi: market.abis.pool,
    functionName: 'withdraw',
    args: [asset, MAX, holder],
    blockHash,
  })
}

/**
 * A supply without debt, of a reserve nobody borrows from (so its liquidity is all there), in
 * each market: the aToken holdings are exactly what a full withdrawal pays.
 */
async function expectSupplyIsWithdrawable() {
  for (const m of markets) {
    const aTka = m.reserves.get(w.tka)!.aToken
    for (const { side } of sides) {
      const res = await side.api.get(`/v1/evm/defi/positions/${bob}`)
      const block = parseBlockNumbers(res.headers.get('x-scry-block-numbers')).get(
        String(CHAIN_ID),
      )!
      const p = res.body.positions.find((x: any) => x.token.address === aTka)
      const paid = await withdrawAll(m, bob, w.tka, await blockHashOf(block))
      expect(paid).toBeGreaterThan(0n)
      expect(p.underlying_token.holdings_raw).toBe(paid.toString())
    }
  }
}

test('default', async () => {
  await expectPositionsMatchMarket()
  await expectSupplyIsWithdrawable()
  // dave withdrew everything from the configured market; the other market is not configured;
  // the look-alike names the configured pool, which does not list it.
  for (const { side } of sides) {
    const res = await side.api.get(`/v1/evm/defi/positions/${dave}`)
    expect(res.body.positions).toEqual([])
    const found = await side.store.store.db
      .selectFrom('defi_tokens')
      .select('address')
      .where('address', '=', lookalike)
      .execute()
    expect(found).toEqual([])
    const rows = await side.store.store.db
      .selectFrom('defi_tokens')
      .select(['address', 'pool'])
      .where('chain_id', '=', CHAIN_ID)
      .where('kind', '=', 'aave_v3_atoken')
      .execute()
    expect(rows).toContainEqual({ address: other.reserves.get(w.usdc)!.aToken, pool: other.pool })
  }
}, 120_000)

test('behavior: 30 days without a transaction: interest moves every number', async () => {
  const before = await sides[0]!.side.api.get(`/v1/evm/defi/positions/${alice}`)
  await w.pub.request({ method: 'evm_increaseTime' as never, params: [30 * DAY] as never })
  await w.pub.request({ method: 'evm_mine' as never, params: [] as never })
  await synced()
  await expectPositionsMatchMarket()
  await expectSupplyIsWithdrawable()
  const after = await sides[0]!.side.api.get(`/v1/evm/defi/positions/${alice}`)
  const debt = (body: any, type: string) =>
    BigInt(body.positions.find((p: any) => p.token_type === type).underlying_token.holdings_raw)
  for (const type of ['AaveV3VariableDebt', 'AaveV2VariableDebt'])
    expect(debt(after.body, type), type).toBeLessThan(debt(before.body, type))
}, 120_000)

test('behavior: a supply undone by a reorg is gone, and the reserve it first touched too', async () => {
  const before = Number(await w.pub.getBlockNumber({ cacheTime: 0 }))
  await fund(dave, w.tka, parseEther('10'))
  await supply(market, dave, w.tka, parseEther('10'))
  await synced()
  const aTka = market.reserves.get(w.tka)!.aToken
  for (const { side } of sides) {
    const res = await side.api.get(`/v1/evm/defi/positions/${dave}`)
    expect(res.body.positions.map((p: any) => p.token.address)).toEqual([aTka])
  }
  const depth = Number(await w.pub.getBlockNumber({ cacheTime: 0 })) - before
  await w.pub.request({
    method: 'anvil_reorg' as never,
    params: [depth, [[{ from: w.deployer, to: w.trader, value: '0x1' }, 0]]] as never,
  })
  await synced()
  for (const { side } of sides) {
    const res = await side.api.get(`/v1/evm/defi/positions/${dave}`)
    expect(res.body.positions).toEqual([])
  }
  await expectPositionsMatchMarket()
}, 120_000)

test('behavior: Aave tokens stored before migration 0016 are found by the one-time probe', async () => {
  const rpc = createRpcClient({ urls: [anvil.rpcUrl] })
  try {
    for (const { side } of sides) {
      const { db } = side.store.store
      const aave = await db
        .selectFrom('defi_tokens')
        .selectAll()
        .where('chain_id', '=', CHAIN_ID)
        .where('kind', '!=', 'erc4626')
        .orderBy('address')
        .execute()
      // Five tokens of each configured market (alice, bob, carol), one of the other market.
      expect(aave.length).toBeGreaterThanOrEqual(10)
      expect(new Set(aave.map((r) => r.kind))).toEqual(
        new Set(['aave_v3_atoken', 'aave_v3_vdebt', 'aave_v2_atoken', 'aave_v2_vdebt']),
      )
      // As 0016 leaves a store indexed before it: rows gone, tokens queued.
      await db
        .deleteFrom('defi_tokens')
        .where('chain_id', '=', CHAIN_ID)
        .where('kind', '!=', 'erc4626')
        .execute()
      await db
        .insertInto('defi_token_probes')
        .values(aave.map((r) => ({ chain_id: CHAIN_ID, address: r.address })))
        .execute()
      const done = await probeStoredTokens({ store: side.store.store, rpc, chainId: CHAIN_ID })
      expect(done).toEqual({ probed: aave.length, found: aave.length })
      const again = await db
        .selectFrom('defi_tokens')
        .selectAll()
        .where('chain_id', '=', CHAIN_ID)
        .where('kind', '!=', 'erc4626')
        .orderBy('address')
        .execute()
      // The same rows (found at the checkpoint now, so another block number), pools included.
      const unblocked = (rows: typeof aave) => rows.map(({ block_number: _, ...r }) => r)
      expect(unblocked(again)).toEqual(unblocked(aave))
      const pools = [market.pool, marketV2.pool, other.pool]
      expect(again.every((r) => pools.includes(r.pool as Address))).toBe(true)
    }
  } finally {
    rpc.close()
  }
  await expectPositionsMatchMarket()
}, 120_000)

test('behavior: supported-protocols lists the aave_v2 and aave_v3 families', async () => {
  for (const { side } of sides) {
    const res = await side.api.get('/v1/evm/defi/supported-protocols')
    expect(res.status).toBe(200)
    for (const version of [2, 3])
      expect(res.body.protocol_families.find((f: any) => f.family === `aave_v${version}`)).toEqual({
        family: `aave_v${version}`,
        chains: [{ chain_id: CHAIN_ID, chain_name: 'ethereum', status: 'stable' }],
        sub_protocols: [`AaveV${version}`],
      })
  }
})

test('behavior: past the cap, debt is kept first (leaving it out would overstate the wallet)', async () => {
  for (const { side } of sides) {
    const { db } = side.store.store
    const wallet = carol.toLowerCase() as Address
    const all = await readDefiCandidates({ db, chain, wallet, limit: 100 })
    const debts = all.candidates.filter((c) => c.type === 'aave' && c.kind === 'vdebt')
    expect(debts.length).toBe(3)
    expect(all.candidates.length).toBeGreaterThan(debts.length)
    const capped = await readDefiCandidates({ db, chain, wallet, limit: debts.length })
    expect(capped).toEqual({ candidates: debts, total: all.total })
  }
})

test('behavior: deployment entries the node disowns are disabled, the rest served', async () => {
  const { store } = sides[0]!.side.store
  // An Aave pool address without code beside the real one; and the shipped (mainnet)
  // deployment of chain 1, none of which exists on this node.
  const mixed = await createTestApi({
    store,
    chains: [{ ...chain, defi: { ...chain.defi!, aaveV3Pools: [market.pool, w.trader] } }],
  })
  // Each market configured as the other version: both disabled at start.
  const swapped = await createTestApi({
    store,
    chains: [
      {
        ...chain,
        defi: { ...chain.defi!, aaveV3Pools: [marketV2.pool], aaveV2Pools: [market.pool] },
      },
    ],
  })
  const shipped = await createTestApi({ store, chains: [{ ...chain, defi: undefined }] })
  try {
    const families = async (api: typeof mixed) =>
      (await api.get('/v1/evm/defi/supported-protocols')).body.protocol_families.map(
        (f: any) => f.family,
      )
    expect(await families(mixed)).toEqual(['uniswap_v2', 'aave_v2', 'aave_v3'])
    const checked = await mixed.ctx.defiDeployments.forChain(mixed.ctx.chains[0]!)
    expect(checked.aaveV3Pools).toEqual([market.pool])
    const res = await mixed.get(`/v1/evm/defi/positions/${alice}`)
    expect(res.body.positions.map((p: any) => p.token_type).sort()).toEqual([
      'AaveV2VariableDebt',
      'AaveV3VariableDebt',
      'AtokenV2',
      'AtokenV3',
    ])
    expect(await families(swapped)).toEqual(['uniswap_v2'])
    expect((await swapped.get(`/v1/evm/defi/positions/${alice}`)).body.positions).toEqual([])
    // V2 positions come from the chain's price factories, which this node has.
    expect(await families(shipped)).toEqual(['uniswap_v2'])
    expect((await shipped.get(`/v1/evm/defi/positions/${alice}`)).body.positions).toEqual([])
  } finally {
    await mixed.close()
    await swapped.close()
    await shipped.close()
  }
})
