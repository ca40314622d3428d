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

/** Aave V2 and V3 aTokens and variable debt tokens (both scaled-balance tokens of one pool). */
export const aaveTokenAbi = parseAbi([
  'function POOL() view returns (address)',
  'function UNDERLYING_ASSET_ADDRESS() view returns (address)',
  'function balanceOf(address owner) view returns (uint256)',
  'function scaledBalanceOf(address owner) view returns (uint256)',
])

/**
 * Aave V2's LendingPool and V3's Pool: `getUserAccountData` has one layout in both (amounts in
 * ETH in V2, in the oracle's base currency in V3; the health factor is a WAD either way).
 */
export const aavePoolAbi = parseAbi([
  'function getUserAccountData(address user) view returns (uint256 totalCollateralBase, uint256 totalDebtBase, uint256 availableBorrowsBase, uint256 currentLiquidationThreshold, uint256 ltv, uint256 healthFactor)',
])

/**
 * Aave V3's `getReserveData`: the 15-word `ReserveDataLegacy` struct (also in 3.2+), cut after
 * the variable debt token.
 */
export const aaveV3ReserveAbi = parseAbi([
  'function getReserveData(address asset) view returns (uint256 configuration, uint128 liquidityIndex, uint128 currentLiquidityRate, uint128 variableBorrowIndex, uint128 currentVariableBorrowRate, uint128 currentStableBorrowRate, uint40 lastUpdateTimestamp, uint16 id, address aTokenAddress, address stableDebtTokenAddress, address variableDebtTokenAddress)',
])

/** Aave V2's `getReserveData`: a 12-word struct, cut after the variable debt token. */
export const aaveV2ReserveAbi = parseAbi([
  'function getReserveData(address asset) view returns (uint256 configuration, uint128 liquidityIndex, uint128 variableBorrowIndex, uint128 currentLiquidityRate, uint128 currentVariableBorrowRate, uint128 currentStableBorrowRate, uint40 lastUpdateTimestamp, address aTokenAddress, address stableDebtTokenAddress, address variableDebtTokenAddress)',
])

/** Uniswap V4's PositionManager (an ERC721 of positions, each with its pool key and ticks). */
export const uniswapV4PositionManagerAbi = parseAbi([
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function getPoolAndPositionInfo(uint256 tokenId) view returns ((address currency0, address currency1, uint24 fee, int24 tickSpacing, address hooks) poolKey, uint256 info)',
])

/** Uniswap V4's StateView: the PoolManager's storage read through `extsload`. */
export const uniswapV4StateViewAbi = parseAbi([
  'function getSlot0(bytes32 poolId) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)',
  'function getFeeGrowthInside(bytes32 poolId, int24 tickLower, int24 tickUpper) view returns (uint256 feeGrowthInside0X128, uint256 feeGrowthInside1X128)',
  'function getPositionInfo(bytes32 poolId, address owner, int24 tickLower, int24 tickUpper, bytes32 salt) view returns (uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128)',
])
