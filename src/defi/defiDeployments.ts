import type { Address, Hex } from '../evm/types.ts'
import type { UniswapV3Manager, UniswapV4Manager } from './types.ts'

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
  /**
   * DeFi positions turned off for the chain (config gave an empty `defiProtocols`): nothing is
   * read, V2 pairs of its `dexFactories` and detected vaults included.
   */
  off?: boolean | undefined
  /** Position managers whose NFTs are `Nft` positions. */
  v3Managers: DefiV3Manager[]
  /** Uniswap V4 PositionManagers (with PoolManager and StateView): `NftV4` positions. */
  v4Managers?: UniswapV4Manager[] | undefined
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
  /** Aave V2 LendingPools: `Tokenized` positions `AtokenV2`, `AaveV2VariableDebt`. */
  aaveV2Pools?: Address[] | undefined
  /**
   * The block each entry was deployed at, or a block before it, by the entry's address (V2
   * factory, V3 manager, V4 PositionManager, Aave pool, vault, stETH and wstETH): a chain
   * indexed from a later `startBlock` misses holders idle since, so the family is `preview`
   * there. An entry without a block counts as deployed at 0.
   */
  fromBlocks?: Readonly<Record<Address, number>> | undefined
  /** Entries (by the same addresses) that supported-protocols lists as `preview` regardless. */
  preview?: readonly Address[] | undefined
}

/** Lido's stETH (the pool ether is staked into) and its wrapper wstETH. */
export type DefiLido = { stEth: Address; wstEth: Address }

/** Protocol name of a pair whose factory has no name in the deployment. */
export const DEFAULT_V2_PROTOCOL = 'UniswapV2'

const addr = (address: string) => address.toLowerCase() as Address
const uniswapV4 = (
  poolManager: string,
  positionManager: string,
  stateView: string,
): UniswapV4Manager => ({
  poolManager: addr(poolManager),
  positionManager: addr(positionManager),
  stateView: addr(stateView),
  protocol: 'UniswapV4',
})
const uniswapV3 = (manager: string, factory: string): DefiV3Manager => ({
  address: addr(manager),
  poolDeployer: addr(factory),
  poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
  protocol: 'UniswapV3',
})
const blocks = (entries: [address: string, block: number][]) =>
  Object.fromEntries(entries.map(([address, block]) => [addr(address), block])) as Record<
    Address,
    number
  >
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
 * `@uniswap/sdk-core` `CHAIN_TO_ADDRESSES_MAP`, read 2026-11-24), Uniswap V4's PoolManager,
 * PositionManager and StateView (same map), the fork names of the
 * V2 factories shipped in `src/prices/dexDeployments.ts`, Aave V3's Pool where Aave is
 * deployed (as in `@aave-dao/aave-address-book` `AaveV3<Chain>.POOL`, read 2026-11-24; no Aave
 * on 130), Aave V2's LendingPool on 1 and 137 (`AaveV2<Chain>.POOL`), and Lido's stETH and
 * wstETH on chain 1. `defiDeployments.test.ts` compares them with those packages. No vault is
 * listed: vaults nobody listed are found at ingest (`unlistedVaults`). A chain's `defi` config
 * replaces its entry.
 *
 * `fromBlocks` are the start blocks public indexers use for these contracts (read 2026-11-26:
 * Uniswap's docs `subgraph-configs.md` and v2-/v4-subgraph configs, gfx-labs/chain-config,
 * messari/subgraphs, sushiswap/subgraphs, lidofinance/lido-subgraph, dappradar/defi-providers,
 * alchemyplatform/lab, Marco75116/uni-magnifier-squid, subsquid-labs showcase). Where only a
 * related contract's block was found, an earlier one stands in (a V4 PoolManager's for its
 * PositionManager, stETH's for wstETH): a block too early only marks a family `preview` that
 * is complete, never the other way round.
 */
export const DEFI_DEPLOYMENTS: ReadonlyMap<number, DefiDeployment> = new Map([
  [
    1,
    {
      v3Managers: [uniswapV3(NPM, UNISWAP_V3_FACTORY)],
      v4Managers: [
        uniswapV4(
          '0x000000000004444c5dc75cB358380D2e3dE08A90',
          '0xbd216513d74c8cf14cf4747e6aaa6420ff64ee9e',
          '0x7ffe42c4a5deea5b0fec41c94c136cf115597227',
        ),
      ],
      v2Protocols: names([
        ['0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f', 'UniswapV2'],
        ['0xC0AEe478e3658e2610c5F7A4A2E1777cE9e4f2Ac', 'SushiSwapV2'],
      ]),
      vaults: [],
      aaveV3Pools: [addr('0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2')],
      aaveV2Pools: [addr('0x7d2768dE32b0b80b7a3454c06BdAc94A69DDc7A9')],
      // As in `@lido-sdk/constants` 3.3.0 `tokens.js`.
      lido: {
        stEth: addr('0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84'),
        wstEth: addr('0x7f39C581F595B53c5cb19bD0b3f8dA6c935E2Ca0'),
      },
      fromBlocks: blocks([
        [NPM, 12_369_651],
        ['0xbd216513d74c8cf14cf4747e6aaa6420ff64ee9e', 21_689_089],
        ['0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f', 10_000_834],
        ['0xC0AEe478e3658e2610c5F7A4A2E1777cE9e4f2Ac', 10_794_229],
        ['0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2', 16_291_127],
        ['0x7d2768dE32b0b80b7a3454c06BdAc94A69DDc7A9', 11_362_579],
        ['0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84', 11_473_216],
        ['0x7f39C581F595B53c5cb19bD0b3f8dA6c935E2Ca0', 11_473_216],
      ]),
    },
  ],
  [
    10,
    {
      v3Managers: [uniswapV3(NPM, UNISWAP_V3_FACTORY)],
      v4Managers: [
        uniswapV4(
          '0x9a13f98cb987694c9f086b1f5eb990eea8264ec3',
          '0x3c3ea4b57a46241e54610e5f022e5c45859a1017',
          '0xc18a3169788f4f75a170290584eca6395c75ecdb',
        ),
      ],
      v2Protocols: names([['0x0c3c1c532F1e39EdF36BE9Fe0bE1410313E074Bf', 'UniswapV2']]),
      vaults: [],
      aaveV3Pools: [AAVE_V3_POOL_L2],
      fromBlocks: blocks([
        [NPM, 0],
        ['0x3c3ea4b57a46241e54610e5f022e5c45859a1017', 130_947_675],
        ['0x0c3c1c532F1e39EdF36BE9Fe0bE1410313E074Bf', 112_197_986],
        [AAVE_V3_POOL_L2, 4_365_693],
      ]),
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
      v4Managers: [
        uniswapV4(
          '0x1f98400000000000000000000000000000000004',
          '0x4529a01c7a0410167c5740c487a8de60232617bf',
          '0x86e8631a016f9068c3f085faf484ee3f5fdee8f2',
        ),
      ],
      v2Protocols: names([['0x1f98400000000000000000000000000000000002', 'UniswapV2']]),
      vaults: [],
      fromBlocks: blocks([
        ['0x943e6e07a7e8e791dafc44083e54041d743c46e9', 294_152],
        ['0x4529a01c7a0410167c5740c487a8de60232617bf', 6_819_679],
        ['0x1f98400000000000000000000000000000000002', 0],
      ]),
    },
  ],
  [
    137,
    {
      v3Managers: [uniswapV3(NPM, UNISWAP_V3_FACTORY)],
      v4Managers: [
        uniswapV4(
          '0x67366782805870060151383f4bbff9dab53e5cd6',
          '0x1ec2ebf4f37e7363fdfe3551602425af0b3ceef9',
          '0x5ea1bd7974c8a611cbab0bdcafcb1d9cc9b3ba5a',
        ),
      ],
      v2Protocols: names([
        ['0x9e5A52f57b3038F1B8EeE45F28b3C1967e22799C', 'UniswapV2'],
        ['0x5757371414417b8C6CAad45bAeF941aBc7d3Ab32', 'QuickSwapV2'],
        [SUSHI_V2_L2, 'SushiSwapV2'],
      ]),
      vaults: [],
      aaveV3Pools: [AAVE_V3_POOL_L2],
      aaveV2Pools: [addr('0x8dFf5E27EA6b7AC08EbFdf9eB090F32ee9a30fcf')],
      fromBlocks: blocks([
        [NPM, 22_760_586],
        ['0x1ec2ebf4f37e7363fdfe3551602425af0b3ceef9', 66_980_384],
        ['0x9e5A52f57b3038F1B8EeE45F28b3C1967e22799C', 49_948_178],
        ['0x5757371414417b8C6CAad45bAeF941aBc7d3Ab32', 4_931_780],
        [SUSHI_V2_L2, 11_333_218],
        [AAVE_V3_POOL_L2, 25_826_028],
        ['0x8dFf5E27EA6b7AC08EbFdf9eB090F32ee9a30fcf', 12_687_245],
      ]),
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
      v4Managers: [
        uniswapV4(
          '0x498581ff718922c3f8e6a244956af099b2652b2b',
          '0x7c5f5a4bbd8fd63184577525326123b519429bdc',
          '0xa3c0c9b65bad0b08107aa264b0f3db444b867a71',
        ),
      ],
      v2Protocols: names([['0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6', 'UniswapV2']]),
      vaults: [],
      aaveV3Pools: [addr('0xA238Dd80C259a72e81d7e4664a9801593F98d1c5')],
      fromBlocks: blocks([
        ['0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1', 1_371_714],
        ['0x7c5f5a4bbd8fd63184577525326123b519429bdc', 25_350_993],
        ['0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6', 6_601_915],
        ['0xA238Dd80C259a72e81d7e4664a9801593F98d1c5', 2_357_134],
      ]),
    },
  ],
  [
    42161,
    {
      v3Managers: [uniswapV3(NPM, UNISWAP_V3_FACTORY)],
      v4Managers: [
        uniswapV4(
          '0x360e68faccca8ca495c1b759fd9eee466db9fb32',
          '0xd88f38f930b7952f2db2432cb002e7abbf3dd869',
          '0x76fd297e2d437cd7f76d50f01afe6160f86e9990',
        ),
      ],
      v2Protocols: names([
        ['0xf1D7CC64Fb4452F05c498126312eBE29f30Fbcf9', 'UniswapV2'],
        [SUSHI_V2_L2, 'SushiSwapV2'],
      ]),
      vaults: [],
      aaveV3Pools: [AAVE_V3_POOL_L2],
      fromBlocks: blocks([
        [NPM, 173],
        ['0xd88f38f930b7952f2db2432cb002e7abbf3dd869', 297_842_872],
        ['0xf1D7CC64Fb4452F05c498126312eBE29f30Fbcf9', 150_442_611],
        [SUSHI_V2_L2, 70],
        [AAVE_V3_POOL_L2, 7_742_429],
      ]),
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
