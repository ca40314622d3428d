import { type Abi, maxUint256, parseEther, parseUnits } from 'viem'
import type { DefiLido, DefiVault } from '../defi/defiDeployments.ts'
import { getSqrtRatioAtTick } from '../defi/getSqrtRatioAtTick.ts'
import type { UniswapV4Manager } from '../defi/types.ts'
import type { Address } from '../evm/types.ts'
import { loadArtifact } from './artifacts.ts'
import type { World } from './buildWorld.ts'
import { compileContracts } from './compileContracts.ts'
import { createAnvilActions } from './createAnvilActions.ts'
import { deployAaveV2 } from './deployAaveV2.ts'
import { deployAaveV3 } from './deployAaveV3.ts'
import { deployLido } from './deployLido.ts'
import { approveV4, deployUniswapV4, encodeV4Mint, type PoolKey } from './deployUniswapV4.ts'

/** The DeFi protocols deployed on a demo chain, as `worldDefi` registers them. */
export type WorldDefi = {
  lido: DefiLido
  vaults: DefiVault[]
  aaveV3Pools: Address[]
  aaveV2Pools: Address[]
  v4Managers: UniswapV4Manager[]
}

/**
 * Deploys the demo's DeFi protocols on a built world (automine on) and opens positions, so
 * `scry dev` shows every `Tokenized` and `Erc4626` type beside the world's Uniswap liquidity:
 * a Lido pair, a listed DEMO vault (`DemoVault`), an Aave V3 market over WETH, DUSD and
 * DEMO from `@aave/core-v3`, an Aave V2 market over WETH and DUSD from `@aave/protocol-v2`,
 * and Uniswap V4 with a native ether/DUSD pool. The deployer (the world's first wallet, which
 * also holds the Uniswap V2/V3 liquidity) stakes, wraps, deposits, supplies DUSD and borrows
 * WETH in both markets and provides V4 liquidity; the second wallet stakes, deposits, supplies
 * the WETH that is borrowed and swaps in the V4 pool (fees to the position).
 */
export async function deployWorldDefi({
  rpcUrl,
  world,
}: {
  rpcUrl: string
  world: Pick<World, 'wallets' | 'tokens' | 'weth' | 'usd'>
}): Promise<WorldDefi> {
  // The V4 PositionManager's creation takes more than the default gas.
  const actions = createAnvilActions({ rpcUrl, gas: 15_000_000n })
  const compiled = await compileContracts()
  const [deployer, lender] = world.wallets as [Address, Address]
  const demo = world.tokens.find((t) => t.kind === 'erc20' && t.symbol === 'DEMO')!.address
  const erc20 = compiled.DemoERC20.abi
  const send = (from: Address, to: Address, abi: Abi, functionName: string, args: unknown[]) =>
    actions.send({ from, to, abi, functionName, args })

  const lido = await deployLido({ actions, from: deployer })
  const vault = await actions.deploy({
    from: deployer,
    artifact: compiled.DemoVault,
    args: [demo, 'Demo Vault DEMO', 'vDEMO', 0],
  })
  const market = await deployAaveV3({
    actions,
    from: deployer,
    reserves: [
      { asset: world.weth, decimals: 18, priceUsd8: 2000_0000_0000n },
      { asset: world.usd, decimals: 6, priceUsd8: 1_0000_0000n },
      { asset: demo, decimals: 18, priceUsd8: 2_0000_0000n },
    ].map((r) => ({ ...r, ltv: 7500, liquidationThreshold: 8000, borrowable: true })),
  })
  // V2 prices in ETH: DUSD at 1/2000.
  const marketV2 = await deployAaveV2({
    actions,
    from: deployer,
    reserves: [
      { asset: world.weth, decimals: 18, priceEth18: parseEther('1') },
      { asset: world.usd, decimals: 6, priceEth18: parseEther('0.0005') },
    ].map((r) => ({ ...r, ltv: 7500, liquidationThreshold: 8000, borrowable: true })),
  })

  for (const [holder, staked] of [
    [deployer, parseEther('10')],
    [lender, parseEther('1')],
  ] as const) {
    await actions.send({
      from: holder,
      to: lido.stEth,
      abi: compiled.DemoStETH.abi,
      functionName: 'submit',
      args: [deployer],
      value: staked,
    })
    await send(holder, demo, erc20, 'mint', [holder, parseEther('10000')])
    await send(holder, demo, erc20, 'approve', [vault, maxUint256])
    await send(holder, vault, compiled.DemoVault.abi, 'deposit', [parseEther('1000'), holder])
  }
  await send(deployer, lido.stEth, compiled.DemoStETH.abi, 'approve', [lido.wstEth, maxUint256])
  await send(deployer, lido.wstEth, compiled.DemoWstETH.abi, 'wrap', [parseEther('2')])

  const pool = market.abis.pool
  await actions.send({
    from: lender,
    to: world.weth,
    abi: loadArtifact('WETH9').abi,
    functionName: 'deposit',
    args: [],
    value: parseEther('30'),
  })
  await send(lender, world.weth, erc20, 'approve', [market.pool, maxUint256])
  await send(lender, market.pool, pool, 'supply', [world.weth, parseEther('20'), lender, 0])
  await send(deployer, world.usd, erc20, 'mint', [deployer, parseUnits('70000', 6)])
  await send(deployer, world.usd, erc20, 'approve', [market.pool, maxUint256])
  await send(deployer, market.pool, pool, 'supply', [
    world.usd,
    parseUnits('50000', 6),
    deployer,
    0,
  ])
  const poolV2 = marketV2.abis.pool
  await send(lender, world.weth, erc20, 'approve', [marketV2.pool, maxUint256])
  await send(lender, marketV2.pool, poolV2, 'deposit', [world.weth, parseEther('10'), lender, 0])
  await send(deployer, world.usd, erc20, 'approve', [marketV2.pool, maxUint256])
  await send(deployer, marketV2.pool, poolV2, 'deposit', [
    world.usd,
    parseUnits('20000', 6),
    deployer,
    0,
  ])
  await send(deployer, marketV2.pool, poolV2, 'borrow', [
    world.weth,
    parseEther('1'),
    2n,
    0,
    deployer,
  ])
  await send(deployer, market.pool, pool, 'borrow', [world.weth, parseEther('2'), 2n, 0, deployer])

  const v4 = await deployUniswapV4({ actions, from: deployer, weth: world.weth })
  const zero = '0x0000000000000000000000000000000000000000'
  const key: PoolKey = {
    currency0: zero,
    currency1: world.usd,
    fee: 3000,
    tickSpacing: 60,
    hooks: zero,
  }
  // Ether at about 2,000 DUSD: 1e18 wei = 2e9 raw DUSD, price 2e-9 (tick ≈ -200,311).
  const tick = Math.round(Math.log(2e-9) / Math.log(1.0001) / 60) * 60
  await actions.send({
    from: deployer,
    to: v4.positionManager,
    abi: v4.abis.positionManager,
    functionName: 'initializePool',
    args: [key, getSqrtRatioAtTick(tick)],
  })
  for (const holder of [deployer, lender]) {
    await send(holder, world.usd, erc20, 'mint', [holder, parseUnits('100000', 6)])
    await approveV4({ actions, v4, owner: holder, token: world.usd })
  }
  await actions.send({
    from: deployer,
    to: v4.positionManager,
    abi: v4.abis.positionManager,
    functionName: 'modifyLiquidities',
    args: [
      encodeV4Mint({
        key,
        tickLower: tick - 60 * 60,
        tickUpper: tick + 60 * 60,
        liquidity: 10n ** 15n,
        owner: deployer,
      }),
      2n ** 48n,
    ],
    value: parseEther('20'),
  })
  await actions.send({
    from: lender,
    to: v4.swapRouter,
    abi: v4.abis.swapRouter,
    functionName: 'swap',
    args: [
      key,
      {
        zeroForOne: true,
        amountSpecified: -parseEther('0.5'),
        sqrtPriceLimitX96: getSqrtRatioAtTick(tick - 600),
      },
      { takeClaims: false, settleUsingBurn: false },
      '0x',
    ],
    value: parseEther('0.5'),
  })

  return {
    lido,
    vaults: [{ address: vault, protocol: 'DemoVault' }],
    aaveV3Pools: [market.pool],
    aaveV2Pools: [marketV2.pool],
    v4Managers: [
      {
        positionManager: v4.positionManager,
        poolManager: v4.poolManager,
        stateView: v4.stateView,
        protocol: 'UniswapV4',
      },
    ],
  }
}
