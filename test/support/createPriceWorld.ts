import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  type WalletClient,
} from 'viem'
import { foundry } from 'viem/chains'
import type { ChainConfig } from '../../src/config/types.ts'
import { anvilAccounts } from '../../src/dev/anvilAccounts.ts'
import { loadArtifact } from '../../src/dev/artifacts.ts'
import { compileContracts } from '../../src/dev/compileContracts.ts'
import type { Anvil } from '../../src/dev/startAnvil.ts'
import { testChainConfig } from './testChain.ts'

/** Far enough ahead for any test. */
export const DEADLINE = 2n ** 48n
const MAX = 2n ** 256n - 1n
/** Full-range ticks per fee tier (tick spacing 60 for 0.3 %, 10 for 0.05 %). */
const FULL_RANGE: Record<number, number> = { 3000: 887_220, 500: 887_270 }

export type PriceWorld = {
  pub: PublicClient
  deployer: Address
  trader: Address
  usdc: Address
  weth: Address
  /** Deep V2 pool against USDC (≈ $2) and a shallow V3 pool at another price. */
  tka: Address
  /** Priced only through WETH (V3 TKB/WETH). */
  tkb: Address
  /** Only a thin V2 pool against USDC (low liquidity). */
  tkc: Address
  /** Only a pool below the minimum liquidity: never priced. */
  dust: Address
  v2Factory: Address
  rogueFactory: Address
  v2Router: Address
  v3Factory: Address
  swapRouter: Address
  /** The V3 NonfungiblePositionManager the V3 pools were seeded through. */
  positionManager: Address
  quoter: Address
  pools: {
    wethUsdcV2: Address
    tkaUsdcV2: Address
    tkaUsdcV3: Address
    tkbWethV3: Address
    wethUsdcV3: Address
    tkcUsdcV2: Address
    dustUsdcV2: Address
    rogueTkaUsdc: Address
  }
  /** Deploys another mintable ERC20 (compiled `DemoERC20`) from the deployer. */
  token(name: string, symbol: string, decimals: number): Promise<Address>
  /** Sends a transaction from `from` (default deployer) and waits for its receipt. */
  send(args: {
    to: Address
    abi: Abi
    functionName: string
    args?: readonly unknown[]
    value?: bigint
    from?: Address
  }): Promise<{ blockNumber: bigint; transactionHash: Hex }>
}

/** A test chain indexing the price world with its USDC, WETH and (non-rogue) factories. */
export function priceWorldChain({
  anvil,
  w,
  ...overrides
}: { anvil: Anvil; w: PriceWorld } & Partial<ChainConfig>): ChainConfig {
  return testChainConfig({
    chainId: anvil.chainId,
    rpc: [anvil.rpcUrl],
    traces: 'parity',
    batchSize: 25,
    usdc: [w.usdc],
    wrappedNative: w.weth,
    dexFactories: [
      { type: 'uniswap_v2', address: w.v2Factory },
      { type: 'uniswap_v3', address: w.v3Factory },
    ],
    minPoolLiquidityUsd: 1000,
    ...overrides,
  })
}

/**
 * A chain with USDC, WETH and test tokens in Uniswap V2 and V3 pools of different depths,
 * deployed from the npm artifacts on an automining anvil.
 */
export async function createPriceWorld(anvil: Anvil): Promise<PriceWorld> {
  const compiled = await compileContracts()
  const [deployerAccount, traderAccount] = anvilAccounts(2)
  const deployer = deployerAccount!.address.toLowerCase() as Address
  const trader = traderAccount!.address.toLowerCase() as Address
  const chain = { ...foundry, id: anvil.chainId }
  const transport = http(anvil.rpcUrl)
  const pub = createPublicClient({ chain, transport }) as PublicClient
  const wallet: WalletClient = createWalletClient({ chain, transport })

  const wait = async (hash: Hex) => {
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== 'success') {
      const tx = await pub.getTransaction({ hash })
      throw new Error(
        `transaction ${hash} reverted: gas ${receipt.gasUsed} of ${tx.gas}, block ${receipt.blockNumber}`,
      )
    }
    return receipt
  }
  const deploy = async (
    artifact: { abi: Abi; bytecode: Hex },
    args: readonly unknown[] = [],
  ): Promise<Address> => {
    const hash = await wallet.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args,
      account: deployer,
      chain,
    })
    return (await wait(hash)).contractAddress!.toLowerCase() as Address
  }
  const send: PriceWorld['send'] = async ({ to, abi, functionName, args = [], value, from }) => {
    // Simulating first turns a revert into an error that says why.
    await pub.simulateContract({
      address: to,
      abi,
      functionName,
      args,
      account: from ?? deployer,
      ...(value === undefined ? {} : { value }),
    })
    const hash = await wallet.writeContract({
      address: to,
      abi,
      functionName,
      args,
      account: from ?? deployer,
      chain,
      // Estimates are made on a block with the previous timestamp; Uniswap's oracles then
      // write more on the real one, so a tight estimate would run out of gas.
      gas: 5_000_000n,
      ...(value === undefined ? {} : { value }),
    })
    const r = await wait(hash)
    return { blockNumber: r.blockNumber, transactionHash: r.transactionHash }
  }
  const read = <T>(address: Address, abi: Abi, functionName: string, args: unknown[] = []) =>
    pub.readContract({ address, abi, functionName, args }) as Promise<T>

  const erc20 = compiled.DemoERC20.abi
  const token = (name: string, symbol: string, decimals: number) =>
    deploy(compiled.DemoERC20, [name, symbol, decimals])
  const usdc = await token('USD Coin', 'USDC', 6)
  const tka = await token('Token A', 'TKA', 18)
  const tkb = await token('Token B', 'TKB', 18)
  const tkc = await token('Token C', 'TKC', 8)
  const dust = await token('Dust', 'DUST', 18)
  const weth = await deploy(loadArtifact('WETH9'))
  const v2Factory = await deploy(loadArtifact('UniswapV2Factory'), [deployer])
  const rogueFactory = await deploy(loadArtifact('UniswapV2Factory'), [deployer])
  const v3Factory = await deploy(loadArtifact('UniswapV3Factory'))
  const v2Router = await deploy(loadArtifact('UniswapV2Router02'), [v2Factory, weth])
  const rogueRouter = await deploy(loadArtifact('UniswapV2Router02'), [rogueFactory, weth])
  const swapRouter = await deploy(loadArtifact('SwapRouter'), [v3Factory, weth])
  const positionManager = await deploy(loadArtifact('NonfungiblePositionManager'), [
    v3Factory,
    weth,
    deployer,
  ])
  const quoter = await deploy(loadArtifact('QuoterV2'), [v3Factory, weth])

  // Funds: the deployer provides liquidity, the trader trades.
  const unit = (n: bigint, decimals: number) => n * 10n ** BigInt(decimals)
  for (const [t, d] of [
    [usdc, 6],
    [tka, 18],
    [tkb, 18],
    [tkc, 8],
    [dust, 18],
  ] as const) {
    await send({ to: t, abi: erc20, functionName: 'mint', args: [deployer, unit(100_000_000n, d)] })
    await send({ to: t, abi: erc20, functionName: 'mint', args: [trader, unit(1_000_000n, d)] })
  }
  const wethAbi = loadArtifact('WETH9').abi
  await send({ to: weth, abi: wethAbi, functionName: 'deposit', value: parseEther('5000') })
  await send({
    to: weth,
    abi: wethAbi,
    functionName: 'deposit',
    value: parseEther('100'),
    from: trader,
  })
  for (const t of [usdc, tka, tkb, tkc, dust, weth]) {
    for (const spender of [v2Router, rogueRouter, positionManager]) {
      await send({ to: t, abi: erc20, functionName: 'approve', args: [spender, MAX] })
    }
    for (const spender of [v2Router, swapRouter]) {
      await send({ to: t, abi: erc20, functionName: 'approve', args: [spender, MAX], from: trader })
    }
  }

  const router = loadArtifact('UniswapV2Router02').abi
  const addV2 = async (via: Address, a: Address, b: Address, amountA: bigint, amountB: bigint) => {
    await send({
      to: via,
      abi: router,
      functionName: 'addLiquidity',
      args: [a, b, amountA, amountB, 0n, 0n, deployer, DEADLINE],
    })
  }
  await addV2(v2Router, weth, usdc, parseEther('1000'), unit(3_000_000n, 6)) // WETH = $3,000
  await addV2(v2Router, tka, usdc, unit(1_000_000n, 18), unit(2_000_000n, 6)) // TKA = $2
  await addV2(v2Router, tkc, usdc, unit(1_000n, 8), unit(4_000n, 6)) // TKC = $4, $8k pool
  await addV2(v2Router, dust, usdc, unit(100n, 18), unit(200n, 6)) // $400 pool: too thin
  // An unconfigured factory's pool, deeper and at a silly price: must never count.
  await addV2(rogueRouter, tka, usdc, unit(1_000n, 18), unit(50_000_000n, 6))

  const pm = loadArtifact('NonfungiblePositionManager').abi
  const addV3 = async (a: Address, b: Address, fee: number, amountA: bigint, amountB: bigint) => {
    const [token0, token1, amount0, amount1] =
      BigInt(a) < BigInt(b) ? [a, b, amountA, amountB] : [b, a, amountB, amountA]
    const sqrtPriceX96 = sqrt((amount1 << 192n) / amount0)
    await send({
      to: positionManager,
      abi: pm,
      functionName: 'createAndInitializePoolIfNecessary',
      args: [token0, token1, fee, sqrtPriceX96],
    })
    const tick = FULL_RANGE[fee]!
    await send({
      to: positionManager,
      abi: pm,
      functionName: 'mint',
      args: [
        {
          token0,
          token1,
          fee,
          tickLower: -tick,
          tickUpper: tick,
          amount0Desired: amount0,
          amount1Desired: amount1,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: deployer,
          deadline: DEADLINE,
        },
      ],
    })
  }
  // Shallow V3 TKA/USDC at $2.50 ($25k): the deep V2 pool must win.
  await addV3(tka, usdc, 3000, unit(5_000n, 18), unit(12_500n, 6))
  // TKB only against WETH: 1 TKB = 0.001 WETH = $3, 300 WETH deep.
  await addV3(tkb, weth, 3000, unit(300_000n, 18), parseEther('300'))
  // WETH/USDC 0.05 % for V3 multi-hop swaps, shallower than the V2 pool.
  await addV3(weth, usdc, 500, parseEther('100'), unit(300_000n, 6))

  const v2Factories = loadArtifact('UniswapV2Factory').abi
  const v3Factories = loadArtifact('UniswapV3Factory').abi
  const pair = async (factory: Address, a: Address, b: Address) =>
    (
      (await read<Address>(factory, v2Factories, 'getPair', [a, b])) as string
    ).toLowerCase() as Address
  const pool = async (a: Address, b: Address, fee: number) =>
    (
      (await read<Address>(v3Factory, v3Factories, 'getPool', [a, b, fee])) as string
    ).toLowerCase() as Address

  return {
    pub,
    deployer,
    trader,
    usdc,
    weth,
    tka,
    tkb,
    tkc,
    dust,
    v2Factory,
    rogueFactory,
    v2Router,
    v3Factory,
    swapRouter,
    positionManager,
    quoter,
    pools: {
      wethUsdcV2: await pair(v2Factory, weth, usdc),
      tkaUsdcV2: await pair(v2Factory, tka, usdc),
      tkaUsdcV3: await pool(tka, usdc, 3000),
      tkbWethV3: await pool(tkb, weth, 3000),
      wethUsdcV3: await pool(weth, usdc, 500),
      tkcUsdcV2: await pair(v2Factory, tkc, usdc),
      dustUsdcV2: await pair(v2Factory, dust, usdc),
      rogueTkaUsdc: await pair(rogueFactory, tka, usdc),
    },
    token,
    send,
  }
}

function sqrt(value: bigint): bigint {
  if (value < 2n) return value
  let x = value
  let y = (x + 1n) / 2n
  while (y < x) {
    x = y
    y = (x + value / x) / 2n
  }
  return x
}
