import { type Abi, type Address, formatUnits, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseBlockNumbers } from '../../src/api/blockNumbersHeader.ts'
import type { ChainConfig } from '../../src/config/types.ts'
import { UNISWAP_V3_POOL_INIT_CODE_HASH } from '../../src/defi/defiDeployments.ts'
import { anvilAccounts } from '../../src/dev/anvilAccounts.ts'
import { loadArtifact } from '../../src/dev/artifacts.ts'
import { compileContracts } from '../../src/dev/compileContracts.ts'
import { createAnvilActions } from '../../src/dev/createAnvilActions.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import {
  createPriceWorld,
  DEADLINE,
  type PriceWorld,
  priceWorldChain,
} from '../support/createPriceWorld.ts'
import { createTestApi, type TestApi, type TestResponse } from '../support/createTestApi.ts'
import { DIALECTS } from '../support/createTestStore.ts'
import {
  type IndexedSide,
  startIndexedSides,
  stopIndexedSides,
} from '../support/startIndexedSides.ts'

// DeFi positions over HTTP, end to end on SQLite and PostgreSQL: a wallet with a Uniswap V2
// LP balance (protocol fee on), two V3 NFTs in one pool (one in range, one above it) and
// shares of a listed ERC4626 vault, indexed by the real indexer. Every raw amount must equal
// the contract's own answer at the block of X-Scry-Block-Numbers (eth_call from the owner),
// and every value the amounts × the token-info prices.
const CHAIN_ID = 1
const MAX = 2n ** 256n - 1n
const MAX128 = 2n ** 128n - 1n
const RELATIVE = 1e-9
const erc20 = loadArtifact('UniswapV2Pair').abi
const routerAbi = loadArtifact('UniswapV2Router02').abi
const npmAbi = loadArtifact('NonfungiblePositionManager').abi
const poolAbi = loadArtifact('UniswapV3Pool').abi
const swapRouterAbi = loadArtifact('SwapRouter').abi
const v2FactoryAbi = loadArtifact('UniswapV2Factory').abi

let anvil: Anvil
let w: PriceWorld
let chain: ChainConfig
let vaultAbi: Abi
let vault: Address
const accounts = anvilAccounts(4).map((a) => a.address.toLowerCase() as Address)
const lp = accounts[2]!
const other = accounts[3]!
const sides: { dialect: string; side: IndexedSide }[] = []

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID })
  w = await createPriceWorld(anvil)
  const compiled = await compileContracts()
  const demo = compiled.DemoERC20.abi
  vaultAbi = compiled.DemoVault.abi
  vault = await createAnvilActions({ rpcUrl: anvil.rpcUrl }).deploy({
    from: w.deployer,
    artifact: compiled.DemoVault,
    args: [w.tka, 'Vault TKA', 'vTKA', 0],
  })
  // The protocol fee on, so that burns mint it first.
  await w.send({ to: w.v2Factory, abi: v2FactoryAbi, functionName: 'setFeeTo', args: [w.deployer] })
  for (const [token, amount] of [
    [w.tka, 10n ** 24n],
    [w.usdc, 10n ** 12n],
  ] as const) {
    await w.send({ to: token, abi: demo, functionName: 'mint', args: [lp, amount] })
    for (const spender of [w.v2Router, w.positionManager, vault])
      await w.send({
        to: token,
        abi: demo,
        functionName: 'approve',
        args: [spender, MAX],
        from: lp,
      })
  }
  await w.send({
    to: w.v2Router,
    abi: routerAbi,
    functionName: 'addLiquidity',
    args: [w.tka, w.usdc, parseEther('1000'), 2_000n * 10n ** 6n, 0n, 0n, lp, DEADLINE],
    from: lp,
  })
  // For the removeLiquidity eth_call.
  await w.send({
    to: w.pools.tkaUsdcV2,
    abi: erc20,
    functionName: 'approve',
    args: [w.v2Router, MAX],
    from: lp,
  })
  const [, tick] = (await w.pub.readContract({
    address: w.pools.tkaUsdcV3,
    abi: poolAbi,
    functionName: 'slot0',
  })) as [bigint, number]
  const at = Math.floor(tick / 60) * 60
  await mintV3(at - 600, at + 600)
  await mintV3(at + 1200, at + 1800)
  await w.send({
    to: vault,
    abi: vaultAbi,
    functionName: 'deposit',
    args: [parseEther('500'), lp],
    from: lp,
  })
  // Yield: the vault's assets grow without new shares.
  await w.send({ to: w.tka, abi: demo, functionName: 'transfer', args: [vault, parseEther('7')] })
  await swaps()

  chain = priceWorldChain({
    anvil,
    w,
    defi: {
      v3Managers: [
        {
          address: w.positionManager,
          poolDeployer: w.v3Factory,
          poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
          protocol: 'UniswapV3',
        },
      ],
      v2Protocols: { [w.v2Factory]: 'TestSwapV2' },
      vaults: [{ address: vault, protocol: 'TestVaults' }],
    },
  })
  sides.push(...(await startIndexedSides(chain)))
  await synced()
}, 240_000)

afterAll(async () => {
  await stopIndexedSides(sides)
  await anvil?.stop()
})

async function mintV3(tickLower: number, tickUpper: number) {
  const [token0, token1] = BigInt(w.tka) < BigInt(w.usdc) ? [w.tka, w.usdc] : [w.usdc, w.tka]
  await w.send({
    to: w.positionManager,
    abi: npmAbi,
    functionName: 'mint',
    args: [
      {
        token0,
        token1,
        fee: 3000,
        tickLower,
        tickUpper,
        amount0Desired: token0 === w.tka ? parseEther('100') : 200n * 10n ** 6n,
        amount1Desired: token1 === w.tka ? parseEther('100') : 200n * 10n ** 6n,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: lp,
        deadline: DEADLINE,
      },
    ],
    from: lp,
  })
}

/** Trades through both pools both ways: V2 reserves move (kLast ≠ k), V3 fees accrue. */
async function swaps() {
  for (const [tokenIn, tokenOut, amountIn] of [
    [w.tka, w.usdc, parseEther('20')],
    [w.usdc, w.tka, 30n * 10n ** 6n],
    [w.tka, w.usdc, parseEther('5')],
  ] as const) {
    await w.send({
      to: w.swapRouter,
      abi: swapRouterAbi,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn,
          tokenOut,
          fee: 3000,
          recipient: w.trader,
          deadline: DEADLINE,
          amountIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
      from: w.trader,
    })
    await w.send({
      to: w.v2Router,
      abi: routerAbi,
      functionName: 'swapExactTokensForTokens',
      args: [amountIn, 0n, [tokenIn, tokenOut], w.trader, DEADLINE],
      from: w.trader,
    })
  }
}

async function synced() {
  const head = Number(await w.pub.getBlockNumber({ cacheTime: 0 }))
  for (const { side } of sides) await side.run.synced({ block: head, timeoutMs: 120_000 })
}

/** eth_call from `from` at `blockNumber`, decoded. */
async function callAt<T>(args: {
  to: Address
  abi: Abi
  functionName: string
  args?: readonly unknown[]
  from: Address
  blockNumber: number
}): Promise<T> {
  const { result } = await w.pub.simulateContract({
    address: args.to,
    abi: args.abi,
    functionName: args.functionName,
    args: args.args ?? [],
    account: args.from,
    blockNumber: BigInt(args.blockNumber),
  })
  return result as T
}

function blockOf(res: TestResponse): number {
  const block = parseBlockNumbers(res.headers.get('x-scry-block-numbers')).get(String(CHAIN_ID))
  expect(block).toBeTypeOf('number')
  return block!
}

function closeTo(actual: number, expected: number) {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(
    Math.max(Math.abs(expected) * RELATIVE, 1e-12),
  )
}

/** Price and decimals as the token-info endpoint gives them. */
async function tokenInfo(api: TestApi, token: string) {
  const res = await api.get(`/v1/evm/token-info/${token}?chain_ids=${CHAIN_ID}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const info = res.body.tokens[0]
  return { price: info.price_usd as number | undefined, decimals: info.decimals as number }
}

/** Σ raw / 10^decimals × price over (token, raw) pairs; unpriced tokens add 0. */
async function usdOf(api: TestApi, amounts: [string, string][]) {
  let sum = 0
  for (const [token, raw] of amounts) {
    const { price, decimals } = await tokenInfo(api, token)
    if (price !== undefined) sum += Number(formatUnits(BigInt(raw), decimals)) * price
  }
  return sum
}

/** Checks every raw amount of a wallet's v1 answer against the contracts at its block. */
async function checkAgainstContracts(api: TestApi, wallet: Address, res: TestResponse) {
  const blockNumber = blockOf(res)
  for (const p of res.body.positions) {
    switch (p.type) {
      case 'UniswapV2': {
        const lpBalance = await callAt<bigint>({
          to: p.pool,
          abi: erc20,
          functionName: 'balanceOf',
          args: [wallet],
          from: wallet,
          blockNumber,
        })
        expect(BigInt(p.lp_balance)).toBe(lpBalance)
        expect(p.balance_raw).toBe(lpBalance.toString())
        const [a0, a1] = await callAt<[bigint, bigint]>({
          to: w.v2Router,
          abi: routerAbi,
          functionName: 'removeLiquidity',
          args: [p.token0.address, p.token1.address, lpBalance, 0n, 0n, wallet, DEADLINE],
          from: wallet,
          blockNumber,
        })
        expect([p.token0.holdings_raw, p.token1.holdings_raw]).toEqual([
          a0.toString(),
          a1.toString(),
        ])
        closeTo(
          p.value_usd,
          await usdOf(api, [
            [p.token0.address, p.token0.holdings_raw],
            [p.token1.address, p.token1.holdings_raw],
          ]),
        )
        break
      }
      case 'Nft': {
        const amounts: [string, string][] = []
        for (const r of p.positions) {
          const tokenId = BigInt(r.token_id)
          const [a0, a1] = await callAt<[bigint, bigint]>({
            to: w.positionManager,
            abi: npmAbi,
            functionName: 'decreaseLiquidity',
            args: [
              {
                tokenId,
                liquidity: BigInt(r.liquidity),
                amount0Min: 0n,
                amount1Min: 0n,
                deadline: DEADLINE,
              },
            ],
            from: wallet,
            blockNumber,
          })
          const [f0, f1] = await callAt<[bigint, bigint]>({
            to: w.positionManager,
            abi: npmAbi,
            functionName: 'collect',
            args: [{ tokenId, recipient: wallet, amount0Max: MAX128, amount1Max: MAX128 }],
            from: wallet,
            blockNumber,
          })
          expect([r.token0.holdings_raw, r.token1.holdings_raw]).toEqual([
            a0.toString(),
            a1.toString(),
          ])
          expect([r.token0.rewards_raw, r.token1.rewards_raw]).toEqual([
            f0.toString(),
            f1.toString(),
          ])
          amounts.push(
            [p.token0.address, r.token0.holdings_raw],
            [p.token0.address, r.token0.rewards_raw],
            [p.token1.address, r.token1.holdings_raw],
            [p.token1.address, r.token1.rewards_raw],
          )
        }
        closeTo(p.value_usd, await usdOf(api, amounts))
        break
      }
      case 'Erc4626': {
        const shares = await callAt<bigint>({
          to: p.pool,
          abi: vaultAbi,
          functionName: 'balanceOf',
          args: [wallet],
          from: wallet,
          blockNumber,
        })
        expect(p.balance_raw).toBe(shares.toString())
        const redeemed = await callAt<bigint>({
          to: p.pool,
          abi: vaultAbi,
          functionName: 'redeem',
          args: [shares, wallet, wallet],
          from: wallet,
          blockNumber,
        })
        const converted = await callAt<bigint>({
          to: p.pool,
          abi: vaultAbi,
          functionName: 'convertToAssets',
          args: [shares],
          from: wallet,
          blockNumber,
        })
        expect(p.preview_redeem_raw).toBe(redeemed.toString())
        expect(p.underlying_token.holdings_raw).toBe(redeemed.toString())
        expect(p.convert_to_assets_raw).toBe(converted.toString())
        closeTo(p.value_usd, await usdOf(api, [[p.underlying_token.address, p.preview_redeem_raw]]))
        break
      }
      default:
        throw new Error(`unexpected position type ${p.type}`)
    }
  }
}

/** The numbers of a /beta position, keyed as the /v1 ones. */
function betaNumbers(p: any) {
  switch (p.type) {
    case 'UniswapV2':
      return [p.usd_value, p.token0_holdings_raw, p.token1_holdings_raw, p.lp_balance]
    case 'Nft':
      return [
        p.usd_value,
        ...p.positions.flatMap((r: any) => [
          r.token_id,
          r.liquidity,
          r.in_range,
          r.token0_holdings_raw,
          r.token0_rewards_raw,
          r.token1_holdings_raw,
          r.token1_rewards_raw,
        ]),
      ]
    default:
      return [p.usd_value, p.balance_raw, p.preview_redeem_raw, p.convert_to_assets_raw]
  }
}
function v1Numbers(p: any) {
  switch (p.type) {
    case 'UniswapV2':
      return [p.value_usd, p.token0.holdings_raw, p.token1.holdings_raw, p.lp_balance]
    case 'Nft':
      return [
        p.value_usd,
        ...p.positions.flatMap((r: any) => [
          r.token_id,
          r.liquidity,
          r.in_range,
          r.token0.holdings_raw,
          r.token0.rewards_raw,
          r.token1.holdings_raw,
          r.token1.rewards_raw,
        ]),
      ]
    default:
      return [p.value_usd, p.balance_raw, p.preview_redeem_raw, p.convert_to_assets_raw]
  }
}

for (const dialect of DIALECTS) {
  describe(`defi positions (${dialect})`, () => {
    const side = () => sides.find((s) => s.dialect === dialect)!.side

    test('default', async () => {
      const { api } = side()
      const v1 = await api.get(`/v1/evm/defi/positions/${lp}`)
      expect(v1.status, JSON.stringify(v1.body)).toBe(200)
      expect(v1.headers.get('x-compute-units-cost')).toBe('4')
      const summary = v1.body.positions.map((p: any) => [p.type, p.protocol, p.pool])
      expect(summary).toEqual(
        expect.arrayContaining([
          ['UniswapV2', 'TestSwapV2', w.pools.tkaUsdcV2],
          ['Nft', 'UniswapV3', w.pools.tkaUsdcV3],
          ['Erc4626', 'TestVaults', vault],
        ]),
      )
      expect(summary).toHaveLength(3)
      const nft = v1.body.positions.find((p: any) => p.type === 'Nft')
      expect(nft.positions.map((r: any) => r.in_range)).toEqual([true, false])
      expect(
        nft.positions[0].token0.rewards_raw !== '0' || nft.positions[0].token1.rewards_raw !== '0',
      ).toBe(true)
      for (const p of v1.body.positions) {
        expect([p.chain, p.chain_id, p.logo]).toEqual(['ethereum', CHAIN_ID, null])
        expect(p.value_usd).toBeGreaterThan(0)
      }
      const values = v1.body.positions.map((p: any) => p.value_usd)
      expect(values).toEqual([...values].sort((a, b) => b - a))
      await checkAgainstContracts(api, lp, v1)
      const total = values.reduce((a: number, b: number) => a + b, 0)
      closeTo(v1.body.aggregations.total_value_usd, total)
      closeTo(v1.body.aggregations.total_by_chain[String(CHAIN_ID)], total)
      expect(v1.body.warnings).toBeUndefined()

      const beta = await api.get(`/beta/evm/defi/positions/${lp}`)
      expect(beta.status, JSON.stringify(beta.body)).toBe(200)
      expect(beta.headers.get('x-compute-units-cost')).toBe('10')
      expect(beta.headers.get('x-scry-block-numbers')).toBe(v1.headers.get('x-scry-block-numbers'))
      expect(beta.body.wallet_address).toBe(lp)
      expect(beta.body.positions.map((p: any) => [p.type, p.protocol, p.pool])).toEqual(summary)
      expect(beta.body.positions.map(betaNumbers)).toEqual(v1.body.positions.map(v1Numbers))
      expect(beta.body.aggregations).toEqual({
        total_usd_value: v1.body.aggregations.total_value_usd,
        total_by_chain: v1.body.aggregations.total_by_chain,
      })
    })

    test('behavior: an empty wallet', async () => {
      const { api } = side()
      const empty = `0x${'ab'.repeat(20)}`
      const v1 = await api.get(`/v1/evm/defi/positions/${empty}?chain_ids=default`)
      expect([v1.status, v1.body]).toEqual([
        200,
        { positions: [], aggregations: { total_value_usd: 0, total_by_chain: {} } },
      ])
      const beta = await api.get(
        `/beta/evm/defi/positions/${empty.toUpperCase().replace('0X', '0x')}`,
      )
      expect([beta.status, beta.body]).toEqual([
        200,
        {
          wallet_address: empty,
          positions: [],
          aggregations: { total_usd_value: 0, total_by_chain: {} },
        },
      ])
    })

    test('behavior: chain ids without DeFi support are a warning', async () => {
      const { api } = side()
      const res = await api.get(`/v1/evm/defi/positions/${lp}?chain_ids=1,56`)
      expect(res.status).toBe(200)
      expect(res.headers.get('x-compute-units-cost')).toBe('4')
      expect(res.body.warnings).toEqual([
        expect.objectContaining({ code: 'UNSUPPORTED_CHAIN_IDS', chain_ids: [56] }),
      ])
    })

    test('behavior: supported protocols are the enabled deployments', async () => {
      const { api } = side()
      const res = await api.get('/v1/evm/defi/supported-protocols')
      expect(res.headers.get('x-compute-units-cost')).toBe('1')
      const chains = [{ chain_id: CHAIN_ID, chain_name: 'ethereum', status: 'stable' }]
      expect([res.status, res.body]).toEqual([
        200,
        {
          protocol_families: [
            { family: 'uniswap_v2', chains, sub_protocols: ['TestSwapV2'] },
            { family: 'uniswap_v3', chains, sub_protocols: ['UniswapV3'] },
            { family: 'erc4626', chains, sub_protocols: ['TestVaults'] },
          ],
        },
      ])
      const bad = await api.get('/v1/evm/defi/supported-protocols?include_preview_chains=yes')
      expect([bad.status, bad.body.error?.code]).toEqual([400, 'BAD_REQUEST'])
    })

    test('error: bad input', async () => {
      const { api } = side()
      for (const path of [
        '/v1/evm/defi/positions/0x1234',
        `/beta/evm/defi/positions/${lp}z`,
        `/v1/evm/defi/positions/${lp}?chain_ids=ethereum`,
        `/beta/evm/defi/positions/${lp}?chain_ids=nonsense`,
      ]) {
        const res = await api.get(path)
        expect([res.status, res.body.error?.code], path).toEqual([400, 'BAD_REQUEST'])
        expect(res.body.error.message).toBeTypeOf('string')
      }
    })

    test('error: the node is down', async () => {
      const { store } = side()
      const down = await createTestApi({
        store: store.store,
        chains: [{ ...chain, rpc: ['http://127.0.0.1:9'] }],
      })
      try {
        const res = await down.get(`/v1/evm/defi/positions/${lp}`)
        expect([res.status, res.body.error?.code]).toEqual([503, 'UNAVAILABLE'])
        // A wallet without candidates asks no node.
        const empty = await down.get(`/v1/evm/defi/positions/${other}`)
        expect(empty.status).toBe(200)
      } finally {
        await down.close()
      }
    })
  })
}

test('behavior: a transferred NFT moves to its new owner', async () => {
  const first = await sides[0]!.side.api.get(`/v1/evm/defi/positions/${lp}`)
  const tokenId = BigInt(
    first.body.positions.find((p: any) => p.type === 'Nft').positions[0].token_id,
  )
  await w.send({
    to: w.positionManager,
    abi: npmAbi,
    functionName: 'transferFrom',
    args: [lp, other, tokenId],
    from: lp,
  })
  await synced()
  for (const { side } of sides) {
    const mine = await side.api.get(`/v1/evm/defi/positions/${lp}`)
    const theirs = await side.api.get(`/v1/evm/defi/positions/${other}`)
    const ids = (res: TestResponse) =>
      res.body.positions.flatMap((p: any) =>
        p.type === 'Nft' ? p.positions.map((r: any) => BigInt(r.token_id)) : [],
      )
    expect(ids(mine)).not.toContain(tokenId)
    expect(ids(theirs)).toEqual([tokenId])
    await checkAgainstContracts(side.api, other, theirs)
  }
})
