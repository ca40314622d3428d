import type { ContractCall } from '../evm/read/readAtBlock.ts'
import type { Address, Hex } from '../evm/types.ts'

/** A Uniswap V3 NonfungiblePositionManager and how the addresses of its pools are derived. */
export type UniswapV3Manager = {
  address: Address
  /** The CREATE2 deployer of the pools: the factory for Uniswap (PancakeSwap V3 has its own). */
  poolDeployer: Address
  poolInitCodeHash: Hex
}

/** A Uniswap V4 PositionManager with the PoolManager it serves and its StateView. */
export type UniswapV4Manager = {
  positionManager: Address
  poolManager: Address
  stateView: Address
  protocol: string
}

/** Something a wallet holds that may be a DeFi position; the reader values it or skips it. */
export type DefiCandidate =
  | {
      type: 'uniswap_v2'
      owner: Address
      pair: Address
      /** The configured factory the pair must name; any other pair is skipped. */
      factory: Address
    }
  | { type: 'uniswap_v3'; owner: Address; manager: UniswapV3Manager; tokenId: bigint }
  | { type: 'uniswap_v4'; owner: Address; manager: UniswapV4Manager; tokenId: bigint }
  | {
      type: 'erc4626'
      owner: Address
      vault: Address
      /** Listed vaults are trusted; others are valued only when self-consistent. */
      listed: boolean
    }
  | {
      type: 'lido'
      owner: Address
      token: Address
      /** stETH balances are shares at a rate; wstETH is a plain ERC20 of stETH shares. */
      kind: 'steth' | 'wsteth'
    }
  | {
      type: 'aave'
      version: AaveVersion
      owner: Address
      token: Address
      kind: AaveKind
      /** The configured pool the token belongs to (`defi_tokens.pool`). */
      pool: Address
      underlying: Address
    }

/** An aToken (supplied) or a variable debt token (borrowed). */
export type AaveKind = 'atoken' | 'vdebt'

/** Aave V2 (LendingPool) or V3 (Pool): same token reads, different pools and names. */
export type AaveVersion = 2 | 3

export type UniswapV2Position = {
  type: 'uniswap_v2'
  owner: Address
  pair: Address
  factory: Address
  token0: Address
  token1: Address
  /** The owner's LP tokens. */
  lpBalance: bigint
  /** `totalSupply()` before the pending protocol fee is minted. */
  totalSupply: bigint
  /** What burning `lpBalance` pays now (`Router02.removeLiquidity`). */
  amount0: bigint
  amount1: bigint
}

export type UniswapV3Position = {
  type: 'uniswap_v3'
  owner: Address
  manager: Address
  tokenId: bigint
  pool: Address
  token0: Address
  token1: Address
  fee: number
  tickLower: number
  tickUpper: number
  liquidity: bigint
  /** tickLower ≤ slot0.tick < tickUpper. */
  inRange: boolean
  /** Principal: what `decreaseLiquidity(liquidity)` returns. */
  amount0: bigint
  amount1: bigint
  /**
   * What `collect` pays before any decrease: fees earned plus `tokensOwed` (which also holds
   * principal decreased earlier and not collected yet).
   */
  fees0: bigint
  fees1: bigint
}

export type UniswapV4Position = {
  type: 'uniswap_v4'
  owner: Address
  /** The PositionManager (the NFT contract). */
  manager: Address
  poolManager: Address
  tokenId: bigint
  /** keccak256 of the pool key. */
  poolId: Hex
  /** Address zero: the chain's native asset. */
  token0: Address
  token1: Address
  fee: number
  hooks: Address
  tickLower: number
  tickUpper: number
  liquidity: bigint
  inRange: boolean
  /** Principal: what DECREASE_LIQUIDITY of all of it pays (hooks that take a cut aside). */
  amount0: bigint
  amount1: bigint
  /** Fees earned since the position was last touched (V4 keeps no tokensOwed). */
  fees0: bigint
  fees1: bigint
}

export type Erc4626Position = {
  type: 'erc4626'
  owner: Address
  vault: Address
  asset: Address
  listed: boolean
  shares: bigint
  /** What redeeming the shares pays now (fees deducted): the holdings. */
  previewRedeem: bigint
  convertToAssets: bigint
  totalAssets: bigint
}

/** Lido stETH or wstETH held directly. */
export type LidoPosition = {
  type: 'lido'
  owner: Address
  token: Address
  kind: 'steth' | 'wsteth'
  /** The scaled balance: stETH `sharesOf`, or the wstETH `balanceOf` (a wstETH is a share). */
  balance: bigint
  /** What it is worth now: stETH `balanceOf` (in ETH), or `getStETHByWstETH(balance)`. */
  holdings: bigint
}

/** An Aave V2 or V3 aToken or variable debt token held directly. */
export type AavePosition = {
  type: 'aave'
  version: AaveVersion
  owner: Address
  token: Address
  kind: AaveKind
  pool: Address
  underlying: Address
  /** `scaledBalanceOf`: the balance divided by the reserve's index when last touched. */
  scaledBalance: bigint
  /** `balanceOf`: what is supplied or owed now, interest included, in the underlying. */
  balance: bigint
  /** The owner's health factor in the pool (WAD), null without debt (2^256 - 1). */
  healthFactor: bigint | null
}

export type DefiPosition =
  | UniswapV2Position
  | UniswapV3Position
  | UniswapV4Position
  | Erc4626Position
  | LidoPosition
  | AavePosition

/**
 * Why a candidate has no value: `closed` (a V3 or V4 NFT with no liquidity and nothing to
 * collect: kept by its owner, holding nothing), `read_failed` (a call reverted or returned
 * something that does not decode), `unknown_factory` (the pair names another factory),
 * `not_owner` (the NFT is someone else's at that block), `inconsistent_vault` (an unlisted
 * vault failed `checkVaultConsistency`), `out_of_range` (invalid ticks or an amount of 2^128
 * or more).
 */
export type SkipReason =
  | 'closed'
  | 'read_failed'
  | 'unknown_factory'
  | 'not_owner'
  | 'inconsistent_vault'
  | 'out_of_range'

export type PositionOutcome =
  | { ok: true; position: DefiPosition }
  | { ok: false; reason: SkipReason }

/**
 * Reads one candidate: yields each round's calls and receives their results in the same
 * order (`undefined` for a call that reverted), at most twice; returns the outcome. No I/O of
 * its own, so every reader runs in the same batched rounds.
 */
export type PositionRead = Generator<
  readonly ContractCall[],
  PositionOutcome,
  readonly (Hex | undefined)[]
>
