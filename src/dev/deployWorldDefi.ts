import { type Abi, maxUint256, parseEther, parseUnits } from 'viem'
import type { DefiLido, DefiVault } from '../defi/defiDeployments.ts'
import type { Address } from '../evm/types.ts'
import type { World } from './buildWorld.ts'
import { compileContracts } from './compileContracts.ts'
import { createAnvilActions } from './createAnvilActions.ts'
import { deployAaveV3 } from './deployAaveV3.ts'
import { deployLido } from './deployLido.ts'

/** The DeFi protocols deployed on a demo chain, as `worldDefi` registers them. */
export type WorldDefi = { lido: DefiLido; vaults: DefiVault[]; aaveV3Pools: Address[] }

const WETH_ABI = [
  { type: 'function', name: 'deposit', stateMutability: 'payable', inputs: [], outputs: [] },
] as const satisfies Abi

/**
 * Deploys the demo's DeFi protocols on a built world (automine on) and opens positions, so
 * `scry dev` shows every `Tokenized` and `Erc4626` type beside the world's Uniswap liquidity:
 * a Lido pair, a listed DEMO vault (`DemoVault`), and an Aave V3 market over WETH, DUSD and
 * DEMO from `@aave/core-v3`. The deployer (the world's first wallet, which also holds the
 * Uniswap liquidity) stakes, wraps, deposits, supplies DUSD and borrows WETH; the second
 * wallet stakes, deposits and supplies the WETH that is borrowed.
 */
export async function deployWorldDefi({
  rpcUrl,
  world,
}: {
  rpcUrl: string
  world: Pick<World, 'wallets' | 'tokens' | 'weth' | 'usd'>
}): Promise<WorldDefi> {
  const actions = createAnvilActions({ rpcUrl })
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
    abi: WETH_ABI,
    functionName: 'deposit',
    args: [],
    value: parseEther('20'),
  })
  await send(lender, world.weth, erc20, 'approve', [market.pool, maxUint256])
  await send(lender, market.pool, pool, 'supply', [world.weth, parseEther('20'), lender, 0])
  await send(deployer, world.usd, erc20, 'mint', [deployer, parseUnits('50000', 6)])
  await send(deployer, world.usd, erc20, 'approve', [market.pool, maxUint256])
  await send(deployer, market.pool, pool, 'supply', [
    world.usd,
    parseUnits('50000', 6),
    deployer,
    0,
  ])
  await send(deployer, market.pool, pool, 'borrow', [world.weth, parseEther('2'), 2n, 0, deployer])

  return {
    lido,
    vaults: [{ address: vault, protocol: 'DemoVault' }],
    aaveV3Pools: [market.pool],
  }
}
