import type { Address, Hex } from '../evm/types.ts'
import type { UniswapV3Manager } from './types.ts'

/**
 * The init code hash Uniswap V3's periphery hard-codes (`PoolAddress.POOL_INIT_CODE_HASH`);
 * the npm `UniswapV3Pool` artifact hashes to it (checked in src/dev/buildWorld.test.ts).
 */
export const UNISWAP_V3_POOL_INIT_CODE_HASH: Hex =
  '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54'

/** A V3-style position manager and the protocol name its positions carry. */
export type DefiV3Manager = UniswapV3Manager & { protocol: string }

/** An ERC4626 vault valued as listed (trusted), with the protocol name it carries. */
export type DefiVault = { address: Address; protocol: string }

/** What a chain's DeFi positions are read from. Addresses lowercase. */
export type DefiDeployment = {
  /** Position managers whose NFTs are `Nft` positions. */
  v3Managers: DefiV3Manager[]
  /** Protocol names of V2 factories (lowercase address → name); others are `UniswapV2`. */
  v2Protocols: Readonly<Record<Address, string>>
  /** Listed ERC4626 vaults. */
  vaults: DefiVault[]
  /** Lido's stETH and wstETH, where deployed (`Tokenized` positions `StETH`, `WstETH`). */
  lido?: DefiLido | undefined
  /**
   * Aave V3 pools whose aTokens and variable debt tokens are `Tokenized` positions (`AtokenV3`,
   * `AaveV3VariableDebt`); the tokens themselves are found at ingest (`probeDefiTokens`).
   */
  aaveV3Pools?: Address[] | undefined
}

/** Lido's stETH (the pool ether is staked into) and its wrapper wstETH. */
export type DefiLido = { stEth: Address; wstEth: Address }

/** Protocol name of a pair whose factory has no name in the deployment. */
export const DEFAULT_V2_PROTOCOL = 'UniswapV2'

const addr = (address: string) => address.toLowerCase() as Address
const uniswapV3 = (manager: string, factory: string): DefiV3Manager => ({
  address: addr(manager),
  poolDeployer: addr(factory),
  poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
  protocol: 'UniswapV3',
})
const names = (entries: [factory: string, name: string][]) =>
  Object.fromEntries(entries.map(([factory, name]) => [addr(factory), name])) as Record<
    Address,
    string
  >

const NPM = '0xC36442b4a4522E871399CD717aBDD847Ab11FE88'
const UNISWAP_V3_FACTORY = '0x1F98431c8aD98523631AE4a59f267346ea31F984'
const SUSHI_V2_L2 = '0xc35DADB65012eC5796536bD9864eD8773aBc74C4'
/** Aave V3's Pool on Optimism, Polygon and Arbitrum (one CREATE2 address). */
const AAVE_V3_POOL_L2 = addr('0x794a61358D6845594F94dc1DB02A252b5b4814aD')

/**
 * Shipped deployments on the chains with DeFi positions (spec/decisions.md: 1, 10, 130, 137,
 * 8453, 42161): Uniswap V3 NonfungiblePositionManagers with their factory (as in
 * `@uniswap/sdk-core` `CHAIN_TO_ADDRESSES_MAP`, read 2026-11-24), and the fork names of the
 * V2 factories shipped in `src/prices/dexDeployments.ts`, Aave V3's Pool where Aave is
 * deployed (as in `@aave-dao/aave-address-book` `AaveV3<Chain>.POOL`, read 2026-11-24; no Aave
 * on 130), and Lido's stETH and wstETH on chain 1. `defiDeployments.test.ts` compares them
 * with those packages. No vault is listed: vaults nobody listed are found at ingest
 * (`unlistedVaults`). A chain's `defi` config replaces its entry.
 */
export const DEFI_DEPLOYMENTS: ReadonlyMap<number, DefiDeployment> = new Map([
  [
    1,
    {
      v3Managers: [uniswapV3(NPM, UNISWAP_V3_FACTORY)],
      v2Protocols: names([
        ['0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f', 'UniswapV2'],
        ['0xC0AEe478e3658e2610c5F7A4A2E1777cE9e4f2Ac', 'SushiSwapV2'],
      ]),
      vaults: [],
      aaveV3Pools: [addr('0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2')],
      // As in `@lido-sdk/constants` 3.3.0 `tokens.js`.
      lido: {
        stEth: addr('0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84'),
        wstEth: addr('0x7f39C581F595B53c5cb19bD0b3f8dA6c935E2Ca0'),
      },
    },
  ],
  [
    10,
    {
      v3Managers: [uniswapV3(NPM, UNISWAP_V3_FACTORY)],
      v2Protocols: names([['0x0c3c1c532F1e39EdF36BE9Fe0bE1410313E074Bf', 'UniswapV2']]),
      vaults: [],
      aaveV3Pools: [AAVE_V3_POOL_L2],
    },
  ],
  [
    130,
    {
      v3Managers: [
        uniswapV3(
          '0x943e6e07a7e8e791dafc44083e54041d743c46e9',
          '0x1f98400000000000000000000000000000000003',
        ),
      ],
      v2Protocols: names([['0x1f98400000000000000000000000000000000002', 'UniswapV2']]),
      vaults: [],
    },
  ],
  [
    137,
    {
      v3Managers: [uniswapV3(NPM, UNISWAP_V3_FACTORY)],
      v2Protocols: names([
        ['0x9e5A52f57b3038F1B8EeE45F28b3C1967e22799C', 'UniswapV2'],
        ['0x5757371414417b8C6CAad45bAeF941aBc7d3Ab32', 'QuickSwapV2'],
        [SUSHI_V2_L2, 'SushiSwapV2'],
      ]),
      vaults: [],
      aaveV3Pools: [AAVE_V3_POOL_L2],
    },
  ],
  [
    8453,
    {
      v3Managers: [
        uniswapV3(
          '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
          '0x33128a8fC17869897dcE68Ed026d694621f6FDfD',
        ),
      ],
      v2Protocols: names([['0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6', 'UniswapV2']]),
      vaults: [],
      aaveV3Pools: [addr('0xA238Dd80C259a72e81d7e4664a9801593F98d1c5')],
    },
  ],
  [
    42161,
    {
      v3Managers: [uniswapV3(NPM, UNISWAP_V3_FACTORY)],
      v2Protocols: names([
        ['0xf1D7CC64Fb4452F05c498126312eBE29f30Fbcf9', 'UniswapV2'],
        [SUSHI_V2_L2, 'SushiSwapV2'],
      ]),
      vaults: [],
      aaveV3Pools: [AAVE_V3_POOL_L2],
    },
  ],
])

const NONE: DefiDeployment = { v3Managers: [], v2Protocols: {}, vaults: [] }

/** The chain's deployment: its `defi` config where set, else the shipped one, else none. */
export function defiDeployment(chain: {
  chainId: number
  defi?: DefiDeployment | undefined
}): DefiDeployment {
  return chain.defi ?? DEFI_DEPLOYMENTS.get(chain.chainId) ?? NONE
}
