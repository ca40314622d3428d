import type { ChainConfig } from '../config/types.ts'
import { type DefiLido, UNISWAP_V3_POOL_INIT_CODE_HASH } from '../defi/defiDeployments.ts'
import type { Address } from '../evm/types.ts'
import type { World } from './buildWorld.ts'

const lower = (address: Address) => address.toLowerCase() as Address

/**
 * DeFi settings for a demo world: its own Uniswap V3 position manager, so positions show, and
 * its own Lido pair where one was deployed (`deployLido`).
 */
export function worldDefi(
  world: Pick<World, 'uniswap'>,
  { lido }: { lido?: DefiLido | undefined } = {},
): Pick<ChainConfig, 'defi'> {
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
      vaults: [],
      ...(lido ? { lido } : {}),
    },
  }
}
