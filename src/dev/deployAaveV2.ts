import { erc20Abi } from '../evm/abis.ts'
import type { Address } from '../evm/types.ts'
import { loadArtifact } from './artifacts.ts'
import type { AnvilActions } from './createAnvilActions.ts'
import { createArtifactActions } from './createArtifactActions.ts'
import type { AaveMarket, AaveReserve } from './deployAaveV3.ts'

/** An asset to list in the market, with the oracle price Aave values it at. */
export type AaveV2ReserveInput = {
  asset: Address
  decimals: number
  /** Wei of ETH per whole token (18 decimals), as V2's Chainlink ETH feeds answer. */
  priceEth18: bigint
  /** Basis points; 0 keeps it from backing loans. */
  ltv: number
  liquidationThreshold: number
  /** Variable rate only; stable rate borrowing stays off. */
  borrowable: boolean
}

const RAY = 10n ** 27n
const pct = (basisPoints: bigint) => (RAY * basisPoints) / 10_000n
const ZERO = '0x0000000000000000000000000000000000000000'

/**
 * Deploys an Aave V2 market from `@aave/protocol-v2` 1.0.1's artifacts (libraries linked from
 * their `linkReferences`), as Aave's own deploy scripts do: addresses provider, LendingPool and
 * LendingPoolConfigurator behind the provider's proxies, collateral manager, data provider, a
 * `LendingRateOracle` (the rate strategy asks it on every rate update), an AaveOracle over one
 * `MockAggregator` per asset, one interest rate strategy, then per reserve its own token
 * implementations (1.0.1 bakes pool and asset into them), `initReserve` (which also activates
 * it) and configuration. `from` becomes the market's owner, pool and emergency admin.
 */
export async function deployAaveV2({
  actions,
  from,
  reserves,
  treasury = from,
}: {
  actions: Pick<AnvilActions, 'deploy' | 'send' | 'call'>
  from: Address
  reserves: readonly AaveV2ReserveInput[]
  treasury?: Address
}): Promise<AaveMarket> {
  const { deploy, send, addressOf: getter } = createArtifactActions({ actions, from })
  /** An address a provider getter answers, lowercase. */
  const addressOf = (to: Address, functionName: string) =>
    getter(to, 'AaveV2LendingPoolAddressesProvider', functionName)

  const provider = await deploy('AaveV2LendingPoolAddressesProvider', ['Scry'])
  await send(provider, 'AaveV2LendingPoolAddressesProvider', 'setPoolAdmin', [from])
  await send(provider, 'AaveV2LendingPoolAddressesProvider', 'setEmergencyAdmin', [from])

  const libraries: Record<string, Address> = {
    ReserveLogic: await deploy('AaveV2ReserveLogic'),
    GenericLogic: await deploy('AaveV2GenericLogic'),
  }
  libraries.ValidationLogic = await deploy('AaveV2ValidationLogic', [], libraries)

  // The provider's proxies call `initialize(provider)`; the configurator's reads the pool.
  const poolImpl = await deploy('AaveV2LendingPool', [], libraries)
  await send(provider, 'AaveV2LendingPoolAddressesProvider', 'setLendingPoolImpl', [poolImpl])
  const pool = await addressOf(provider, 'getLendingPool')
  const configuratorImpl = await deploy('AaveV2LendingPoolConfigurator')
  await send(provider, 'AaveV2LendingPoolAddressesProvider', 'setLendingPoolConfiguratorImpl', [
    configuratorImpl,
  ])
  const configurator = await addressOf(provider, 'getLendingPoolConfigurator')
  const configure = (functionName: string, args: readonly unknown[]) =>
    send(configurator, 'AaveV2LendingPoolConfigurator', functionName, args)
  const collateralManager = await deploy('AaveV2LendingPoolCollateralManager')
  await send(provider, 'AaveV2LendingPoolAddressesProvider', 'setLendingPoolCollateralManager', [
    collateralManager,
  ])
  const dataProvider = await deploy('AaveV2AaveProtocolDataProvider', [provider])

  const rateOracle = await deploy('AaveV2LendingRateOracle')
  await send(provider, 'AaveV2LendingPoolAddressesProvider', 'setLendingRateOracle', [rateOracle])
  const sources: Address[] = []
  for (const r of reserves) sources.push(await deploy('AaveV2MockAggregator', [r.priceEth18]))
  // No WETH: the oracle answers 1 ether for it without a source, here every asset has one.
  const oracle = await deploy('AaveV2AaveOracle', [
    reserves.map((r) => r.asset),
    sources,
    ZERO,
    ZERO,
  ])
  await send(provider, 'AaveV2LendingPoolAddressesProvider', 'setPriceOracle', [oracle])

  const strategy = await deploy('AaveV2DefaultReserveInterestRateStrategy', [
    provider,
    pct(8000n),
    0n,
    pct(400n),
    pct(7500n),
    pct(200n),
    pct(7500n),
  ])
  const symbols = await Promise.all(
    reserves.map((r) =>
      actions.call<string>({ to: r.asset, abi: erc20Abi, functionName: 'symbol' }),
    ),
  )
  const listed = new Map<Address, AaveReserve>()
  for (const [i, r] of reserves.entries()) {
    const symbol = symbols[i]
    // 1.0.1 proxies copy name and symbol from the implementation, which names pool and asset.
    const aTokenImpl = await deploy('AaveV2AToken', [
      pool,
      r.asset,
      treasury,
      `Aave Scry ${symbol}`,
      `aScr${symbol}`,
      ZERO,
    ])
    const stableDebtImpl = await deploy('AaveV2StableDebtToken', [
      pool,
      r.asset,
      `Aave Scry Stable Debt ${symbol}`,
      `stableDebtScr${symbol}`,
      ZERO,
    ])
    const variableDebtImpl = await deploy('AaveV2VariableDebtToken', [
      pool,
      r.asset,
      `Aave Scry Variable Debt ${symbol}`,
      `variableDebtScr${symbol}`,
      ZERO,
    ])
    await configure('initReserve', [
      aTokenImpl,
      stableDebtImpl,
      variableDebtImpl,
      r.decimals,
      strategy,
    ])
    if (r.ltv > 0)
      await configure('configureReserveAsCollateral', [
        r.asset,
        BigInt(r.ltv),
        BigInt(r.liquidationThreshold),
        10_500n,
      ])
    if (r.borrowable) await configure('enableBorrowingOnReserve', [r.asset, false])
    const data = await actions.call<{
      aTokenAddress: Address
      stableDebtTokenAddress: Address
      variableDebtTokenAddress: Address
    }>({
      to: pool,
      abi: loadArtifact('AaveV2LendingPool').abi,
      functionName: 'getReserveData',
      args: [r.asset],
    })
    listed.set(r.asset, {
      aToken: data.aTokenAddress.toLowerCase() as Address,
      variableDebt: data.variableDebtTokenAddress.toLowerCase() as Address,
      stableDebt: data.stableDebtTokenAddress.toLowerCase() as Address,
    })
  }
  return {
    provider,
    pool,
    configurator,
    dataProvider,
    oracle,
    reserves: listed,
    abis: {
      pool: loadArtifact('AaveV2LendingPool').abi,
      dataProvider: loadArtifact('AaveV2AaveProtocolDataProvider').abi,
      aToken: loadArtifact('AaveV2AToken').abi,
    },
  }
}
