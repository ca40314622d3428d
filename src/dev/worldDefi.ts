import type { ChainConfig } from '../config/types.ts'
import { UNISWAP_V3_POOL_INIT_CODE_HASH } from '../defi/defiDeployments.ts'
import type { Address } from '../evm/types.ts'
import type { World } from './buildWorld.ts'
import type { WorldDefi } from './deployWorldDefi.ts'

const lower = (address: Address) => address.toLowerCase() as Address

/**
 * DeFi settings for a demo world: its own Uniswap V3 position manager, so positions show, and
 * its own Lido pair, vaults, Aave pools and Uniswap V4 where they were deployed
 * (`deployWorldDefi`).
 */
export function worldDefi(
  world: Pick<World, 'uniswap'>,
  deployed: Partial<WorldDefi> = {},
): Pick<ChainConfig, 'defi'> {
  const { lido, vaults = [], aaveV3Pools = [], aaveV2Pools = [], v4Managers = [] } = deployed
  return {
    defi: {
      v3Managers: [
        {
          address: lower(world.uniswap.positionManager),
          poolDeployer: lower(world.uniswap.v3Factory),
          poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
          protocol: 'UniswapV3',
        },
      ],
      v2Protocols: {},
      v4Managers,
      vaults,
      aaveV3Pools,
      aaveV2Pools,
      ...(lido ? { lido } : {}),
    },
  }
}
