import { parseAbi, toEventSelector } from 'viem'

/** Uniswap V2-style pairs and their factories (and forks that keep the same ABI). */
export const uniswapV2Abi = parseAbi([
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'function factory() view returns (address)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function getPair(address tokenA, address tokenB) view returns (address)',
])

/** Uniswap V3-style pools and their factories. */
export const uniswapV3Abi = parseAbi([
  'event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)',
  'function factory() view returns (address)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function fee() view returns (uint24)',
  'function liquidity() view returns (uint128)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function getPool(address tokenA, address tokenB, uint24 fee) view returns (address)',
])

export const PAIR_CREATED_TOPIC = toEventSelector('PairCreated(address,address,address,uint256)')
export const POOL_CREATED_TOPIC = toEventSelector(
  'PoolCreated(address,address,uint24,int24,address)',
)

/** Events after which a V2 pair's reserves may differ. */
export const V2_SYNC_TOPIC = toEventSelector('Sync(uint112,uint112)')
export const V2_SWAP_TOPIC = toEventSelector(
  'Swap(address,uint256,uint256,uint256,uint256,address)',
)
export const V2_MINT_TOPIC = toEventSelector('Mint(address,uint256,uint256)')
export const V2_BURN_TOPIC = toEventSelector('Burn(address,uint256,uint256,address)')

/** Events after which a V3 pool's price, liquidity or balances may differ. */
export const V3_INITIALIZE_TOPIC = toEventSelector('Initialize(uint160,int24)')
export const V3_SWAP_TOPIC = toEventSelector(
  'Swap(address,address,int256,int256,uint160,uint128,int24)',
)
/** PancakeSwap V3 adds the protocol fees of each token to its Swap event. */
export const PANCAKE_V3_SWAP_TOPIC = toEventSelector(
  'Swap(address,address,int256,int256,uint160,uint128,int24,uint128,uint128)',
)
export const V3_MINT_TOPIC = toEventSelector(
  'Mint(address,address,int24,int24,uint128,uint256,uint256)',
)
export const V3_BURN_TOPIC = toEventSelector('Burn(address,int24,int24,uint128,uint256,uint256)')
export const V3_COLLECT_TOPIC = toEventSelector(
  'Collect(address,address,int24,int24,uint128,uint128)',
)
