import type { ChainConfig } from '../config/types.ts'
import type { World } from './buildWorld.ts'

/** Pricing settings for a demo world: its dollar as the anchor, its WETH, its Uniswap factories. */
export function worldPricing(
  world: Pick<World, 'usd' | 'weth' | 'uniswap'>,
): Pick<ChainConfig, 'usdc' | 'wrappedNative' | 'dexFactories' | 'minPoolLiquidityUsd'> {
  return {
    usdc: [world.usd],
    wrappedNative: world.weth,
    dexFactories: [
      { type: 'uniswap_v2', address: world.uniswap.v2Factory },
      { type: 'uniswap_v3', address: world.uniswap.v3Factory },
    ],
    minPoolLiquidityUsd: 1000,
  }
}
