import {
  AaveV2Ethereum,
  AaveV2Polygon,
  AaveV3Arbitrum,
  AaveV3Base,
  AaveV3Ethereum,
  AaveV3Optimism,
  AaveV3Polygon,
} from '@aave-dao/aave-address-book'
import { CHAIN_TO_ADDRESSES_MAP, V2_FACTORY_ADDRESSES } from '@uniswap/sdk-core'
import { expect, test } from 'vitest'
import { DEFI_DEPLOYMENTS } from './defiDeployments.ts'

// The shipped addresses agree with the protocols' own address packages (not with a list we
// wrote): Uniswap's `@uniswap/sdk-core` and Aave's `@aave-dao/aave-address-book`.
const lower = (address: string | undefined) => address?.toLowerCase()
const AAVE_V3_POOLS: Record<number, string | undefined> = {
  1: AaveV3Ethereum.POOL,
  10: AaveV3Optimism.POOL,
  130: undefined,
  137: AaveV3Polygon.POOL,
  8453: AaveV3Base.POOL,
  42161: AaveV3Arbitrum.POOL,
}

const AAVE_V2_POOLS: Record<number, string | undefined> = {
  1: AaveV2Ethereum.POOL,
  137: AaveV2Polygon.POOL,
}

test('default', () => {
  expect([...DEFI_DEPLOYMENTS.keys()].sort((a, b) => a - b)).toEqual([1, 10, 130, 137, 8453, 42161])
  for (const [chainId, deployment] of DEFI_DEPLOYMENTS) {
    const uniswap = CHAIN_TO_ADDRESSES_MAP[chainId as keyof typeof CHAIN_TO_ADDRESSES_MAP]
    const [manager] = deployment.v3Managers.filter((m) => m.protocol === 'UniswapV3')
    expect(manager?.address, `${chainId} NPM`).toBe(
      lower(uniswap.nonfungiblePositionManagerAddress),
    )
    expect(manager?.poolDeployer, `${chainId} V3 factory`).toBe(lower(uniswap.v3CoreFactoryAddress))
    const v2 = Object.entries(deployment.v2Protocols).find(([, name]) => name === 'UniswapV2')
    expect(v2?.[0], `${chainId} V2 factory`).toBe(lower(V2_FACTORY_ADDRESSES[chainId]))
    const [v4] = deployment.v4Managers ?? []
    expect([v4?.poolManager, v4?.positionManager, v4?.stateView], `${chainId} Uniswap V4`).toEqual(
      [uniswap.v4PoolManagerAddress, uniswap.v4PositionManagerAddress, uniswap.v4StateView].map(
        lower,
      ),
    )
    const aave = AAVE_V3_POOLS[chainId]
    expect(deployment.aaveV3Pools ?? [], `${chainId} Aave V3 Pool`).toEqual(
      aave ? [lower(aave)] : [],
    )
    const aaveV2 = AAVE_V2_POOLS[chainId]
    expect(deployment.aaveV2Pools ?? [], `${chainId} Aave V2 LendingPool`).toEqual(
      aaveV2 ? [lower(aaveV2)] : [],
    )
  }
})

test('default: every shipped entry has the block it was deployed at, and nothing else has', () => {
  for (const [chainId, d] of DEFI_DEPLOYMENTS) {
    const entries = [
      ...Object.keys(d.v2Protocols),
      ...d.v3Managers.map((m) => m.address),
      ...(d.v4Managers ?? []).map((m) => m.positionManager),
      ...(d.aaveV2Pools ?? []),
      ...(d.aaveV3Pools ?? []),
      ...d.vaults.map((v) => v.address),
      ...(d.lido ? [d.lido.stEth, d.lido.wstEth] : []),
    ]
    expect(Object.keys(d.fromBlocks ?? {}).sort(), `${chainId}`).toEqual(
      [...new Set(entries)].sort(),
    )
    for (const block of Object.values(d.fromBlocks ?? {}))
      expect(Number.isSafeInteger(block) && block >= 0).toBe(true)
  }
})
