import type { Abi } from 'viem'
import { erc20Abi } from '../evm/abis.ts'
import type { Address } from '../evm/types.ts'
import { loadArtifact } from './artifacts.ts'
import type { AnvilActions } from './createAnvilActions.ts'
import { createArtifactActions } from './createArtifactActions.ts'

/** An asset to list in the market, with the oracle price Aave values it at. */
export type AaveV3ReserveInput = {
  asset: Address
  decimals: number
  /** USD with 8 decimals, as Chainlink answers (`MockAggregator`). */
  priceUsd8: bigint
  /** Basis points; 0 keeps it from backing loans. */
  ltv: number
  liquidationThreshold: number
  borrowable: boolean
}

export type AaveReserve = { aToken: Address; variableDebt: Address; stableDebt: Address }

/**
 * A deployed market (V3's or V2's: `deployAaveV2` answers the same shape): the addresses tests
 * and `scry dev` talk to, lowercase.
 */
export type AaveMarket = {
  provider: Address
  pool: Address
  configurator: Address
  dataProvider: Address
  oracle: Address
  /** By underlying asset. */
  reserves: Map<Address, AaveReserve>
  abis: { pool: Abi; dataProvider: Abi; aToken: Abi }
}

const RAY = 10n ** 27n
const pct = (basisPoints: bigint) => (RAY * basisPoints) / 10_000n

/**
 * Deploys an Aave V3 market from `@aave/core-v3`'s artifacts (libraries linked from their
 * `linkReferences`), as Aave's own deploy scripts do: addresses provider, ACL, Pool and
 * PoolConfigurator behind the provider's proxies, data provider, an AaveOracle over one
 * `MockAggregator` per asset, token implementations, one interest rate strategy, then the
 * reserves initialised and configured. `from` becomes the market's owner and pool admin.
 */
export async function deployAaveV3({
  actions,
  from,
  reserves,
  treasury = from,
}: {
  actions: Pick<AnvilActions, 'deploy' | 'send' | 'call'>
  from: Address
  reserves: readonly AaveV3ReserveInput[]
  treasury?: Address
}): Promise<AaveMarket> {
  const { deploy, send, addressOf: getter } = createArtifactActions({ actions, from })
  /** An address a provider getter answers, lowercase. */
  const addressOf = (to: Address, functionName: string) =>
    getter(to, 'PoolAddressesProvider', functionName)

  const provider = await deploy('PoolAddressesProvider', ['Scry', from])
  await send(provider, 'PoolAddressesProvider', 'setACLAdmin', [from])
  const acl = await deploy('ACLManager', [provider])
  await send(provider, 'PoolAddressesProvider', 'setACLManager', [acl])
  await send(acl, 'ACLManager', 'addPoolAdmin', [from])

  const libraries: Record<string, Address> = {}
  for (const name of [
    'SupplyLogic',
    'BorrowLogic',
    'LiquidationLogic',
    'EModeLogic',
    'BridgeLogic',
    'PoolLogic',
    'ConfiguratorLogic',
  ] as const)
    libraries[name] = await deploy(name)
  libraries.FlashLoanLogic = await deploy('FlashLoanLogic', [], libraries)

  const poolImpl = await deploy('Pool', [provider], libraries)
  await send(poolImpl, 'Pool', 'initialize', [provider])
  await send(provider, 'PoolAddressesProvider', 'setPoolImpl', [poolImpl])
  const pool = await addressOf(provider, 'getPool')
  const configuratorImpl = await deploy('PoolConfigurator', [], libraries)
  await send(provider, 'PoolAddressesProvider', 'setPoolConfiguratorImpl', [configuratorImpl])
  const configurator = await addressOf(provider, 'getPoolConfigurator')
  const dataProvider = await deploy('AaveProtocolDataProvider', [provider])
  await send(provider, 'PoolAddressesProvider', 'setPoolDataProvider', [dataProvider])

  const sources: Address[] = []
  for (const r of reserves) sources.push(await deploy('MockAggregator', [r.priceUsd8]))
  const zero = '0x0000000000000000000000000000000000000000'
  const oracle = await deploy('AaveOracle', [
    provider,
    reserves.map((r) => r.asset),
    sources,
    zero,
    zero,
    10n ** 8n,
  ])
  await send(provider, 'PoolAddressesProvider', 'setPriceOracle', [oracle])

  const aTokenImpl = await deploy('AToken', [pool])
  const variableDebtImpl = await deploy('VariableDebtToken', [pool])
  const stableDebtImpl = await deploy('StableDebtToken', [pool])
  const strategy = await deploy('DefaultReserveInterestRateStrategy', [
    provider,
    pct(8000n),
    0n,
    pct(400n),
    pct(7500n),
    pct(200n),
    pct(7500n),
    pct(200n),
    pct(500n),
    pct(2000n),
  ])
  const symbols = await Promise.all(
    reserves.map((r) =>
      actions.call<string>({ to: r.asset, abi: erc20Abi, functionName: 'symbol' }),
    ),
  )
  // One reserve per call: each deploys three proxies, more gas than one transaction may take.
  for (const [i, r] of reserves.entries())
    await send(configurator, 'PoolConfigurator', 'initReserves', [
      [
        {
          aTokenImpl,
          stableDebtTokenImpl: stableDebtImpl,
          variableDebtTokenImpl: variableDebtImpl,
          underlyingAssetDecimals: r.decimals,
          interestRateStrategyAddress: strategy,
          underlyingAsset: r.asset,
          treasury,
          incentivesController: zero,
          aTokenName: `Aave Scry ${symbols[i]}`,
          aTokenSymbol: `aScr${symbols[i]}`,
          variableDebtTokenName: `Aave Scry Variable Debt ${symbols[i]}`,
          variableDebtTokenSymbol: `variableDebtScr${symbols[i]}`,
          stableDebtTokenName: `Aave Scry Stable Debt ${symbols[i]}`,
          stableDebtTokenSymbol: `stableDebtScr${symbols[i]}`,
          params: '0x',
        },
      ],
    ])
  const listed = new Map<Address, AaveReserve>()
  for (const r of reserves) {
    if (r.ltv > 0)
      await send(configurator, 'PoolConfigurator', 'configureReserveAsCollateral', [
        r.asset,
        BigInt(r.ltv),
        BigInt(r.liquidationThreshold),
        10_500n,
      ])
    if (r.borrowable)
      await send(configurator, 'PoolConfigurator', 'setReserveBorrowing', [r.asset, true])
    const data = await actions.call<{
      aTokenAddress: Address
      stableDebtTokenAddress: Address
      variableDebtTokenAddress: Address
    }>({ to: pool, abi: loadArtifact('Pool').abi, functionName: 'getReserveData', args: [r.asset] })
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
      pool: loadArtifact('Pool').abi,
      dataProvider: loadArtifact('AaveProtocolDataProvider').abi,
      aToken: loadArtifact('AToken').abi,
    },
  }
}
