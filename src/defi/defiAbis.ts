import { parseAbi } from 'viem'

/**
 * What the position readers call. Outputs are cut to the fields used, so forks that append
 * fields to a struct (PancakeSwap V3's `slot0`) decode as well.
 */

export const uniswapV2PairAbi = parseAbi([
  'function factory() view returns (address)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function balanceOf(address owner) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function kLast() view returns (uint256)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
])

export const uniswapV2FactoryAbi = parseAbi(['function feeTo() view returns (address)'])

export const uniswapV3PositionManagerAbi = parseAbi([
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)',
])

export const uniswapV3PoolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick)',
  'function feeGrowthGlobal0X128() view returns (uint256)',
  'function feeGrowthGlobal1X128() view returns (uint256)',
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128)',
])

export const erc4626Abi = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function asset() view returns (address)',
  'function totalAssets() view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
  'function previewRedeem(uint256 shares) view returns (uint256)',
])

export const lidoAbi = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function sharesOf(address owner) view returns (uint256)',
  'function getStETHByWstETH(uint256 wstETHAmount) view returns (uint256)',
])
