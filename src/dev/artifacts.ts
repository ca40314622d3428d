import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Abi } from 'viem'
import type { Hex } from '../evm/types.ts'
import type { LinkReferences } from './linkBytecode.ts'

export type Artifact = {
  abi: Abi
  bytecode: Hex
  /** Library placeholders to fill before deploying (`linkBytecode`); Hardhat artifacts only. */
  linkReferences?: LinkReferences
}

/** Aave V3 (`@aave/core-v3`, Hardhat): contract name → its artifact, from the source path. */
function aaveV3<const T extends Record<string, string>>(sources: T) {
  return Object.fromEntries(
    Object.entries(sources).map(([name, source]) => [
      name,
      `@aave/core-v3/artifacts/contracts/${source}/${name}.json`,
    ]),
  ) as { [K in keyof T]: string }
}

/**
 * Aave V2 (`@aave/protocol-v2`, Hardhat): `AaveV2` + contract name → its artifact, from the
 * source path. Prefixed because Aave V3 took the plain names (AToken, AaveOracle, …).
 */
function aaveV2<const T extends Record<string, string>>(sources: T) {
  return Object.fromEntries(
    Object.entries(sources).map(([name, source]) => [
      `AaveV2${name}`,
      `@aave/protocol-v2/artifacts/contracts/${source}/${name}.json`,
    ]),
  ) as { [K in keyof T as `AaveV2${K & string}`]: string }
}

/** Where each npm artifact lives (package-relative JSON files as published). */
const ARTIFACT_PATHS = {
  WETH9: 'canonical-weth/build/contracts/WETH9.json',
  UniswapV2Factory: '@uniswap/v2-core/build/UniswapV2Factory.json',
  UniswapV2Pair: '@uniswap/v2-core/build/UniswapV2Pair.json',
  UniswapV2Router02: '@uniswap/v2-periphery/build/UniswapV2Router02.json',
  UniswapV3Factory:
    '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
  UniswapV3Pool: '@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json',
  SwapRouter: '@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json',
  NonfungiblePositionManager:
    '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  QuoterV2: '@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
  PoolManager: '@uniswap/v4-core/out/PoolManager.sol/PoolManager.json',
  PoolSwapTest: '@uniswap/v4-core/out/PoolSwapTest.sol/PoolSwapTest.json',
  PositionManager: '@uniswap/v4-periphery/foundry-out/PositionManager.sol/PositionManager.json',
  StateView: '@uniswap/v4-periphery/foundry-out/StateView.sol/StateView.json',
  ...aaveV3({
    PoolAddressesProvider: 'protocol/configuration/PoolAddressesProvider.sol',
    ACLManager: 'protocol/configuration/ACLManager.sol',
    Pool: 'protocol/pool/Pool.sol',
    PoolConfigurator: 'protocol/pool/PoolConfigurator.sol',
    DefaultReserveInterestRateStrategy: 'protocol/pool/DefaultReserveInterestRateStrategy.sol',
    AToken: 'protocol/tokenization/AToken.sol',
    VariableDebtToken: 'protocol/tokenization/VariableDebtToken.sol',
    StableDebtToken: 'protocol/tokenization/StableDebtToken.sol',
    AaveOracle: 'misc/AaveOracle.sol',
    AaveProtocolDataProvider: 'misc/AaveProtocolDataProvider.sol',
    MockAggregator: 'mocks/oracle/CLAggregators/MockAggregator.sol',
    SupplyLogic: 'protocol/libraries/logic/SupplyLogic.sol',
    BorrowLogic: 'protocol/libraries/logic/BorrowLogic.sol',
    LiquidationLogic: 'protocol/libraries/logic/LiquidationLogic.sol',
    EModeLogic: 'protocol/libraries/logic/EModeLogic.sol',
    BridgeLogic: 'protocol/libraries/logic/BridgeLogic.sol',
    FlashLoanLogic: 'protocol/libraries/logic/FlashLoanLogic.sol',
    PoolLogic: 'protocol/libraries/logic/PoolLogic.sol',
    ConfiguratorLogic: 'protocol/libraries/logic/ConfiguratorLogic.sol',
  }),
  ...aaveV2({
    LendingPoolAddressesProvider: 'protocol/configuration/LendingPoolAddressesProvider.sol',
    LendingPool: 'protocol/lendingpool/LendingPool.sol',
    LendingPoolConfigurator: 'protocol/lendingpool/LendingPoolConfigurator.sol',
    LendingPoolCollateralManager: 'protocol/lendingpool/LendingPoolCollateralManager.sol',
    DefaultReserveInterestRateStrategy:
      'protocol/lendingpool/DefaultReserveInterestRateStrategy.sol',
    AToken: 'protocol/tokenization/AToken.sol',
    VariableDebtToken: 'protocol/tokenization/VariableDebtToken.sol',
    StableDebtToken: 'protocol/tokenization/StableDebtToken.sol',
    AaveOracle: 'misc/AaveOracle.sol',
    AaveProtocolDataProvider: 'misc/AaveProtocolDataProvider.sol',
    MockAggregator: 'mocks/oracle/CLAggregators/MockAggregator.sol',
    LendingRateOracle: 'mocks/oracle/LendingRateOracle.sol',
    ReserveLogic: 'protocol/libraries/logic/ReserveLogic.sol',
    GenericLogic: 'protocol/libraries/logic/GenericLogic.sol',
    ValidationLogic: 'protocol/libraries/logic/ValidationLogic.sol',
  }),
} as const

export type ArtifactName = keyof typeof ARTIFACT_PATHS

/**
 * Init code hashes the Uniswap periphery hard-codes to compute pair/pool addresses
 * (UniswapV2Library.pairFor, PoolAddress.computeAddress). The npm core artifacts hash to
 * these (checked in buildWorld.test.ts), so the npm periphery works against them.
 */
export const UNISWAP_V2_PAIR_INIT_CODE_HASH =
  '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f'
export { UNISWAP_V3_POOL_INIT_CODE_HASH } from '../defi/defiDeployments.ts'

const require = createRequire(import.meta.url)
const loaded = new Map<ArtifactName, Artifact>()

/** Loads a compiled contract (abi + creation bytecode) from its npm package, once. */
export function loadArtifact(name: ArtifactName): Artifact {
  const hit = loaded.get(name)
  if (hit) return hit
  const json = JSON.parse(readFileSync(require.resolve(ARTIFACT_PATHS[name]), 'utf8')) as {
    abi: Abi
    /** Foundry builds (Uniswap V4) nest it: `{ object }`. */
    bytecode: string | { object: string }
    linkReferences?: LinkReferences
  }
  const raw = typeof json.bytecode === 'string' ? json.bytecode : json.bytecode.object
  // Truffle and Hardhat artifacts carry a 0x prefix, the Waffle builds of Uniswap V2 do not.
  const bytecode = (raw.startsWith('0x') ? raw : `0x${raw}`) as Hex
  const links = json.linkReferences ?? {}
  const artifact = {
    abi: json.abi,
    bytecode,
    ...(Object.keys(links).length > 0 ? { linkReferences: links } : {}),
  }
  loaded.set(name, artifact)
  return artifact
}

/** Where Permit2 lives on every chain (Uniswap V4's PositionManager pulls tokens through it). */
export const PERMIT2_ADDRESS = '0x000000000022d473030f116ddee9f6b43ac78ba3'

/**
 * Permit2's runtime code as `@uniswap/v4-periphery` ships it for tests
 * (`lib/permit2/test/utils/DeployPermit2.sol`, which plants it at `PERMIT2_ADDRESS`); Permit2
 * itself is not on npm as an artifact. Plant it with `anvil_setCode`.
 */
export function loadPermit2Code(): Hex {
  const source = readFileSync(
    require.resolve('@uniswap/v4-periphery/lib/permit2/test/utils/DeployPermit2.sol'),
    'utf8',
  )
  const match = /hex"([0-9a-f]+)"/.exec(source)
  if (!match?.[1]) throw new Error('No Permit2 bytecode in DeployPermit2.sol.')
  return `0x${match[1]}`
}
