import { type Abi, encodeFunctionData, parseEther } from 'viem'
import type { Address } from '../evm/types.ts'
import { loadArtifact } from './artifacts.ts'
import type { CompiledContracts } from './compileContracts.ts'
import type { TxQueue } from './createTxQueue.ts'
import type { DeployedContracts } from './deployWorld.ts'

export const V3_FEE = 3000
/** Far enough ahead for any demo run. */
export const DEADLINE = 2n ** 48n
/** Full range for tick spacing 60. */
const TICK = 887_220

/**
 * Queues Uniswap approvals (V2 router and V3 SwapRouter, DEMO/DUSD/WETH, every wallet) and
 * the deployer's liquidity: V2 pairs DEMO/WETH and DEMO/DUSD through the router, and a V3
 * DEMO/WETH 0.3 % pool created, initialized at 1:1 and given a position through the
 * NonfungiblePositionManager. All liquidity txs come from the deployer, so nonce order keeps
 * them in sequence even inside one block.
 */
export function seedUniswap({
  queue,
  compiled,
  contracts: k,
  wallets,
  deployer,
}: {
  queue: TxQueue
  compiled: CompiledContracts
  contracts: DeployedContracts
  wallets: Address[]
  deployer: Address
}): void {
  const erc20 = compiled.DemoERC20.abi
  const demo = k.demoTokens[0]!.address
  const dusd = k.demoTokens[1]!.address
  const send = (
    label: string,
    from: Address,
    to: Address,
    abi: Abi,
    functionName: string,
    args: readonly unknown[],
    { gas, value }: { gas: bigint; value?: bigint },
  ) =>
    queue.add({
      label,
      from,
      to,
      data: encodeFunctionData({ abi, functionName, args }),
      gas,
      ...(value === undefined ? {} : { value }),
    })
  const max = 2n ** 256n - 1n
  for (const w of wallets)
    for (const token of [demo, dusd, k.weth])
      for (const spender of [k.v2Router, k.swapRouter])
        send('uniswap approve', w, token, erc20, 'approve', [spender, max], { gas: 80_000n })
  // Liquidity comes from extra deployer funds the model does not count.
  const lp = (
    label: string,
    to: Address,
    abi: Abi,
    fn: string,
    args: readonly unknown[],
    gas: bigint,
    value?: bigint,
  ) => send(label, deployer, to, abi, fn, args, value === undefined ? { gas } : { gas, value })
  lp('lp mint demo', demo, erc20, 'mint', [deployer, 10n ** 30n], 100_000n)
  lp('lp mint dusd', dusd, erc20, 'mint', [deployer, 10n ** 18n], 100_000n)
  lp('lp weth', k.weth, loadArtifact('WETH9').abi, 'deposit', [], 80_000n, parseEther('500'))
  for (const token of [demo, dusd, k.weth])
    for (const spender of [k.v2Router, k.positionManager])
      lp('lp approve', token, erc20, 'approve', [spender, max], 80_000n)
  const router = loadArtifact('UniswapV2Router02').abi
  const thousand = 1000n * 10n ** 18n
  lp(
    'v2 add eth',
    k.v2Router,
    router,
    'addLiquidityETH',
    [demo, 100n * thousand, 0n, 0n, deployer, DEADLINE],
    5_000_000n,
    parseEther('100'),
  )
  lp(
    'v2 add',
    k.v2Router,
    router,
    'addLiquidity',
    [demo, dusd, 100n * thousand, 100_000n * 10n ** 6n, 0n, 0n, deployer, DEADLINE],
    5_000_000n,
  )
  const [token0, token1] = BigInt(demo) < BigInt(k.weth) ? [demo, k.weth] : [k.weth, demo]
  const pm = loadArtifact('NonfungiblePositionManager').abi
  // Price 1:1 (both 18 decimals): sqrtPriceX96 = 2^96.
  lp(
    'v3 create pool',
    k.positionManager,
    pm,
    'createAndInitializePoolIfNecessary',
    [token0, token1, V3_FEE, 2n ** 96n],
    7_000_000n,
  )
  const position = {
    token0,
    token1,
    fee: V3_FEE,
    tickLower: -TICK,
    tickUpper: TICK,
    amount0Desired: 200n * 10n ** 18n,
    amount1Desired: 200n * 10n ** 18n,
    amount0Min: 0n,
    amount1Min: 0n,
    recipient: deployer,
    deadline: DEADLINE,
  }
  lp('v3 mint position', k.positionManager, pm, 'mint', [position], 1_000_000n)
}
