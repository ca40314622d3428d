import { type Abi, type Address, maxUint256, parseEther } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { parseBlockNumbers } from '../../src/api/blockNumbersHeader.ts'
import type { ChainConfig } from '../../src/config/types.ts'
import type { DefiLido } from '../../src/defi/defiDeployments.ts'
import { anvilAccounts } from '../../src/dev/anvilAccounts.ts'
import { loadArtifact } from '../../src/dev/artifacts.ts'
import { compileContracts } from '../../src/dev/compileContracts.ts'
import { createAnvilActions } from '../../src/dev/createAnvilActions.ts'
import { deployLido } from '../../src/dev/deployLido.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import {
  createPriceWorld,
  DEADLINE,
  type PriceWorld,
  priceWorldChain,
} from '../support/createPriceWorld.ts'
import {
  type IndexedSide,
  startIndexedSides,
  stopIndexedSides,
  syncIndexedSides,
} from '../support/startIndexedSides.ts'

// One wallet with positions on two chains (Ethereum and OP Mainnet ids, each its own node, Lido
// pair and prices): every position equals its own chain's contracts at the block that chain's
// X-Scry-Block-Numbers entry names, each is valued at its own chain's price, `total_by_chain`
// sums each chain and the total both, in both shapes, with 4 CU (v1) and 10 CU (beta) per
// chain. A chain whose node is gone is left out with CHAIN_UNAVAILABLE; both gone is a 503.
const CHAINS = [1, 10] as const
type ChainId = (typeof CHAINS)[number]

type Side = {
  chainId: ChainId
  anvil: Anvil
  w: PriceWorld
  lido: DefiLido
  chain: ChainConfig
  stopped: boolean
}

let stEthAbi: Abi
let wstEthAbi: Abi
const on = new Map<ChainId, Side>()
const sides: { dialect: string; side: IndexedSide }[] = []
const [alice] = anvilAccounts(5)
  .slice(4)
  .map((a) => a.address.toLowerCase() as Address) as [Address]

beforeAll(async () => {
  const compiled = await compileContracts()
  stEthAbi = compiled.DemoStETH.abi
  wstEthAbi = compiled.DemoWstETH.abi
  for (const chainId of CHAINS) {
    const anvil = await startAnvil({ chainId })
    const w = await createPriceWorld(anvil)
    const lido = await deployLido({
      actions: createAnvilActions({ rpcUrl: anvil.rpcUrl }),
      from: w.deployer,
    })
    const chain = priceWorldChain({
      anvil,
      w,
      defi: { v3Managers: [], v2Protocols: {}, vaults: [], lido },
    })
    on.set(chainId, { chainId, anvil, w, lido, chain, stopped: false })
  }
  // Different amounts per chain, and wstETH only on 10, so no chain's numbers fit the other's.
  await submit(1, parseEther('3'))
  await submit(10, parseEther('5'))
  const ten = on.get(10)!
  await ten.w.send({
    to: ten.lido.stEth,
    abi: stEthAbi,
    functionName: 'approve',
    args: [ten.lido.wstEth, maxUint256],
    from: alice,
  })
  await ten.w.send({
    to: ten.lido.wstEth,
    abi: wstEthAbi,
    functionName: 'wrap',
    args: [parseEther('2')],
    from: alice,
  })
  // Ether sold for USDC on 10 only: ether is cheaper there than on 1.
  await ten.w.send({
    to: ten.w.v2Router,
    abi: loadArtifact('UniswapV2Router02').abi,
    functionName: 'swapExactETHForTokens',
    args: [0n, [ten.w.weth, ten.w.usdc], ten.w.trader, DEADLINE],
    value: parseEther('50'),
    from: ten.w.trader,
  })
  sides.push(...(await startIndexedSides(CHAINS.map((id) => on.get(id)!.chain))))
  for (const c of on.values()) await syncIndexedSides(sides, c.w.pub, c.chainId)
}, 240_000)

afterAll(async () => {
  await stopIndexedSides(sides)
  for (const c of on.values()) if (!c.stopped) await c.anvil.stop()
})

async function submit(chainId: ChainId, value: bigint) {
  const c = on.get(chainId)!
  await c.w.send({
    to: c.lido.stEth,
    abi: stEthAbi,
    functionName: 'submit',
    args: ['0x0000000000000000000000000000000000000000'],
    value,
    from: alice,
  })
}

/** What chain `chainId`'s contracts say alice holds at `block`: [token, balance, holdings]. */
async function chainAnswers(chainId: ChainId, block: number) {
  const { w, lido } = on.get(chainId)!
  const read = async (address: Address, abi: Abi, functionName: string, args: unknown[]) =>
    (await w.pub.readContract({
      address,
      abi,
      functionName,
      args,
      blockNumber: BigInt(block),
    })) as bigint
  const answers: [Address, bigint, bigint][] = []
  const shares = await read(lido.stEth, stEthAbi, 'sharesOf', [alice])
  if (shares > 0n)
    answers.push([lido.stEth, shares, await read(lido.stEth, stEthAbi, 'balanceOf', [alice])])
  const wrapped = await read(lido.wstEth, wstEthAbi, 'balanceOf', [alice])
  if (wrapped > 0n)
    answers.push([
      lido.wstEth,
      wrapped,
      await read(lido.wstEth, wstEthAbi, 'getStETHByWstETH', [wrapped]),
    ])
  return answers
}

/** The wrapped native token's price on `chainId`, as its token-info endpoint gives it. */
async function ethPrice(side: IndexedSide, chainId: ChainId) {
  const { w } = on.get(chainId)!
  const res = await side.api.get(`/v1/evm/token-info/${w.weth}?chain_ids=${chainId}`)
  expect(res.status).toBe(200)
  const price = res.body.tokens[0].price_usd as number
  expect(price).toBeGreaterThan(0)
  return price
}

const relative = (got: number, want: number) => Math.abs(got - want) / Math.abs(want)

test('default', async () => {
  for (const { dialect, side } of sides) {
    const v1 = await side.api.get(`/v1/evm/defi/positions/${alice}`)
    const beta = await side.api.get(`/beta/evm/defi/positions/${alice}`)
    expect(v1.status, JSON.stringify(v1.body)).toBe(200)
    expect(beta.status, JSON.stringify(beta.body)).toBe(200)
    expect(v1.headers.get('x-compute-units-cost')).toBe('8')
    expect(beta.headers.get('x-compute-units-cost')).toBe('20')
    const blocks = parseBlockNumbers(v1.headers.get('x-scry-block-numbers'))
    expect([...blocks.keys()].sort()).toEqual(['1', '10'])
    let total = 0
    for (const chainId of CHAINS) {
      const label = `${dialect} chain ${chainId}`
      const expected = await chainAnswers(chainId, blocks.get(String(chainId))!)
      const got = v1.body.positions.filter((p: any) => p.chain_id === chainId)
      expect(got.map((p: any) => p.token.address).sort(), label).toEqual(
        expected.map(([token]) => token).sort(),
      )
      const price = await ethPrice(side, chainId)
      let chainTotal = 0
      for (const [token, balance, holdings] of expected) {
        const p = got.find((x: any) => x.token.address === token)
        expect([p.balance_raw, p.underlying_token.holdings_raw], label).toEqual([
          balance.toString(),
          holdings.toString(),
        ])
        expect(relative(p.value_usd, (Number(holdings) / 1e18) * price), label).toBeLessThan(1e-9)
        chainTotal += p.value_usd
      }
      expect(
        relative(v1.body.aggregations.total_by_chain[String(chainId)], chainTotal),
      ).toBeLessThan(1e-12)
      total += chainTotal
    }
    expect(v1.body.positions).toHaveLength(3)
    // Each chain's positions at its own price: the two differ.
    expect(relative(await ethPrice(side, 10), await ethPrice(side, 1))).toBeGreaterThan(0.01)
    expect(relative(v1.body.aggregations.total_value_usd, total)).toBeLessThan(1e-12)
    expect(beta.body.aggregations).toEqual({
      total_usd_value: v1.body.aggregations.total_value_usd,
      total_by_chain: v1.body.aggregations.total_by_chain,
    })
    expect(beta.body.positions.map((p: any) => [p.chain_id, p.token, p.usd_value]).sort()).toEqual(
      v1.body.positions.map((p: any) => [p.chain_id, p.token.address, p.value_usd]).sort(),
    )
  }
})

test('behavior: chain_ids picks one chain, charged for one', async () => {
  for (const { side } of sides) {
    const all = await side.api.get(`/v1/evm/defi/positions/${alice}`)
    const res = await side.api.get(`/v1/evm/defi/positions/${alice}?chain_ids=10`)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-compute-units-cost')).toBe('4')
    expect(res.headers.get('x-scry-block-numbers')).toMatch(/^10=\d+$/)
    expect(res.body.positions).toEqual(all.body.positions.filter((p: any) => p.chain_id === 10))
    expect(Object.keys(res.body.aggregations.total_by_chain)).toEqual(['10'])
    expect(res.body.aggregations.total_value_usd).toBe(all.body.aggregations.total_by_chain['10'])
  }
})

test('behavior: a chain whose node is gone is left out; both gone is a 503', async () => {
  const before = await sides[0]!.side.api.get(`/v1/evm/defi/positions/${alice}`)
  const ten = on.get(10)!
  await ten.anvil.stop()
  ten.stopped = true
  for (const { side } of sides) {
    const res = await side.api.get(`/v1/evm/defi/positions/${alice}`)
    expect(res.status).toBe(200)
    expect(res.body.warnings).toEqual([expect.objectContaining({ code: 'CHAIN_UNAVAILABLE' })])
    expect(JSON.stringify(res.body.warnings)).toContain('10')
    expect(res.body.positions).toEqual(before.body.positions.filter((p: any) => p.chain_id === 1))
    expect(res.body.aggregations).toEqual({
      total_value_usd: before.body.aggregations.total_by_chain['1'],
      total_by_chain: { '1': before.body.aggregations.total_by_chain['1'] },
    })
  }
  const one = on.get(1)!
  await one.anvil.stop()
  one.stopped = true
  for (const { side } of sides) {
    const res = await side.api.get(`/v1/evm/defi/positions/${alice}`)
    expect([res.status, res.body.error?.code]).toEqual([503, 'UNAVAILABLE'])
  }
})
