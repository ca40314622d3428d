import { type Abi, type Address, maxUint256, parseEther } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { parseBlockNumbers } from '../../src/api/blockNumbersHeader.ts'
import { readTokenPrices } from '../../src/api/prices/readTokenPrices.ts'
import type { ChainConfig } from '../../src/config/types.ts'
import { anvilAccounts } from '../../src/dev/anvilAccounts.ts'
import { compileContracts } from '../../src/dev/compileContracts.ts'
import { createAnvilActions } from '../../src/dev/createAnvilActions.ts'
import { deployLido } from '../../src/dev/deployLido.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { fromU256 } from '../../src/store/u256.ts'
import { createPriceWorld, type PriceWorld, priceWorldChain } from '../support/createPriceWorld.ts'
import { createPublishedValidator } from '../support/publishedSchemas.ts'
import {
  type IndexedSide,
  startIndexedSides,
  stopIndexedSides,
  syncIndexedSides,
} from '../support/startIndexedSides.ts'

// Lido stETH and wstETH as `Tokenized` positions, from our own contracts that behave like
// Lido's: holders submit ether, some wrap, an operator's report moves the pooled ether up and
// down. Every raw number equals the contracts' own answers at the block of
// X-Scry-Block-Numbers, before and after each report, although a report emits no Transfer.
const CHAIN_ID = 1
const MAX = maxUint256

let anvil: Anvil
let w: PriceWorld
let chain: ChainConfig
let stEthAbi: Abi
let wstEthAbi: Abi
let stEth: Address
let wstEth: Address
const holders = anvilAccounts(6)
  .slice(3)
  .map((a) => a.address.toLowerCase() as Address)
const [alice, bob, carol] = holders as [Address, Address, Address]
const sides: { dialect: string; side: IndexedSide }[] = []
const validator = createPublishedValidator()

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID })
  w = await createPriceWorld(anvil)
  const actions = createAnvilActions({ rpcUrl: anvil.rpcUrl })
  const compiled = await compileContracts()
  stEthAbi = compiled.DemoStETH.abi
  wstEthAbi = compiled.DemoWstETH.abi
  const lido = await deployLido({ actions, from: w.deployer })
  stEth = lido.stEth
  wstEth = lido.wstEth
  await submit(alice, parseEther('10'))
  await report(parseEther('10.5'))
  await submit(bob, parseEther('3'))
  await submit(carol, parseEther('5'))
  await wrap(bob, parseEther('1'))
  await wrap(carol, (await read(stEth, stEthAbi, 'balanceOf', [carol])) as bigint)
  chain = priceWorldChain({
    anvil,
    w,
    defi: { v3Managers: [], v2Protocols: {}, vaults: [], lido: { stEth, wstEth } },
  })
  sides.push(...(await startIndexedSides(chain)))
  await synced()
}, 240_000)

afterAll(async () => {
  await stopIndexedSides(sides)
  await anvil?.stop()
})

async function submit(from: Address, value: bigint) {
  const zero = '0x0000000000000000000000000000000000000000'
  await w.send({ to: stEth, abi: stEthAbi, functionName: 'submit', args: [zero], value, from })
}

async function wrap(from: Address, amount: bigint) {
  await w.send({ to: stEth, abi: stEthAbi, functionName: 'approve', args: [wstEth, MAX], from })
  await w.send({ to: wstEth, abi: wstEthAbi, functionName: 'wrap', args: [amount], from })
}

async function report(totalPooledEther: bigint) {
  await w.send({ to: stEth, abi: stEthAbi, functionName: 'report', args: [totalPooledEther] })
}

async function read(
  address: Address,
  abi: Abi,
  functionName: string,
  args: unknown[],
  block?: number,
) {
  return w.pub.readContract({
    address,
    abi,
    functionName,
    args,
    ...(block === undefined ? {} : { blockNumber: BigInt(block) }),
  })
}

const synced = () => syncIndexedSides(sides, w.pub)

/** Each holder's Lido positions on both stores and both shapes, checked against the chain. */
async function expectPositionsMatchChain() {
  for (const { dialect, side } of sides) {
    const prices = await readTokenPrices({ db: side.store.store.db, chain, assets: [w.weth] })
    const ethUsd = prices.get(w.weth)!.priceUsd
    expect(ethUsd).toBeGreaterThan(0)
    for (const holder of holders) {
      const v1 = await side.api.get(`/v1/evm/defi/positions/${holder}`)
      const beta = await side.api.get(`/beta/evm/defi/positions/${holder}`)
      expect(v1.status, JSON.stringify(v1.body)).toBe(200)
      expect(beta.status, JSON.stringify(beta.body)).toBe(200)
      // Sim's TokenizedPosition: `lending_pool` is a string (never null), extra fields allowed.
      expect(validator.validate('GET /v1/evm/defi/positions/{address}', v1.body)).toEqual([])
      const block = parseBlockNumbers(v1.headers.get('x-scry-block-numbers')).get(String(CHAIN_ID))!
      const shares = (await read(stEth, stEthAbi, 'sharesOf', [holder], block)) as bigint
      const stBalance = (await read(stEth, stEthAbi, 'balanceOf', [holder], block)) as bigint
      const wBalance = (await read(wstEth, wstEthAbi, 'balanceOf', [holder], block)) as bigint
      const wHoldings = (await read(
        wstEth,
        wstEthAbi,
        'getStETHByWstETH',
        [wBalance],
        block,
      )) as bigint
      const expected = [
        // A candidate is a non-zero stored balance: 1 share worth 0 wei after a report down
        // (carol's dust after wrapping all) is no position.
        ...(stBalance > 0n
          ? [{ token: stEth, type: 'StETH', underlying: w.weth, raw: shares, holdings: stBalance }]
          : []),
        ...(wBalance > 0n
          ? [
              {
                token: wstEth,
                type: 'WstETH',
                underlying: stEth,
                raw: wBalance,
                holdings: wHoldings,
              },
            ]
          : []),
      ]
      const got = v1.body.positions.filter((p: any) => p.type === 'Tokenized')
      expect(got.length, `${dialect} ${holder}`).toBe(expected.length)
      for (const e of expected) {
        const p = got.find((x: any) => x.token.address === e.token)
        expect(p, `${dialect} ${holder} ${e.type}`).toMatchObject({
          chain_id: CHAIN_ID,
          protocol: 'Lido',
          pool: stEth,
          lending_pool: stEth,
          token_type: e.type,
          balance_raw: e.raw.toString(),
          underlying_token: { address: e.underlying, holdings_raw: e.holdings.toString() },
          logo: null,
        })
        const value = (Number(e.holdings) / 1e18) * ethUsd
        expect(Math.abs(p.value_usd - value) / value).toBeLessThan(1e-9)
        const flat = beta.body.positions.find((x: any) => x.token === e.token)
        expect(flat).toMatchObject({
          type: 'Tokenized',
          token_type: e.type,
          usd_value: p.value_usd,
          calculated_balance: p.balance,
          balance_raw: p.balance_raw,
          price_in_usd: p.price_usd,
          underlying_token: e.underlying,
          holdings: p.underlying_token.holdings,
          holdings_raw: p.underlying_token.holdings_raw,
          lending_pool: stEth,
        })
      }
    }
  }
}

/**
 * The indexer's stored stETH balances equal `balanceOf` at the head: a report changes the
 * supply without events, so `readBatchState` marks stETH rebasing and re-reads every holder.
 */
async function expectStoredStEthFresh() {
  for (const { side } of sides) {
    const { db } = side.store.store
    const token = await db
      .selectFrom('tokens')
      .select('rebasing')
      .where('chain_id', '=', CHAIN_ID)
      .where('address', '=', stEth)
      .executeTakeFirstOrThrow()
    expect(token.rebasing).toBe(1)
    const rows = await db
      .selectFrom('token_balances')
      .select(['address', 'balance'])
      .where('chain_id', '=', CHAIN_ID)
      .where('token', '=', stEth)
      .execute()
    for (const holder of holders) {
      const row = rows.find((r) => r.address === holder)
      expect(row ? fromU256(row.balance) : 0n).toBe(
        await read(stEth, stEthAbi, 'balanceOf', [holder]),
      )
    }
  }
}

test('default', async () => {
  await expectPositionsMatchChain()
}, 60_000)

test('behavior: a report up moves stETH and wstETH values without a Transfer', async () => {
  const before = (await read(wstEth, wstEthAbi, 'getStETHByWstETH', [parseEther('1')])) as bigint
  await report(parseEther('19.5'))
  await synced()
  expect(await read(wstEth, wstEthAbi, 'getStETHByWstETH', [parseEther('1')])).toBeGreaterThan(
    before,
  )
  await expectPositionsMatchChain()
  await expectStoredStEthFresh()
}, 120_000)

test('behavior: a report down (slashing) moves them down', async () => {
  await report(parseEther('17'))
  await synced()
  await expectPositionsMatchChain()
  await expectStoredStEthFresh()
}, 120_000)

test('behavior: supported-protocols lists the lido family', async () => {
  for (const { side } of sides) {
    const res = await side.api.get('/v1/evm/defi/supported-protocols')
    expect(res.status).toBe(200)
    expect(res.body.protocol_families.find((f: any) => f.family === 'lido')).toEqual({
      family: 'lido',
      chains: [{ chain_id: CHAIN_ID, chain_name: 'ethereum', status: 'stable' }],
      sub_protocols: ['Lido'],
    })
  }
})
