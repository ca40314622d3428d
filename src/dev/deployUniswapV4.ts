import { type Abi, encodeAbiParameters, encodePacked, maxUint128, maxUint256, parseAbi } from 'viem'
import { type V4PoolKey as PoolKey, V4_POOL_KEY_ABI } from '../defi/getV4PoolId.ts'
import type { Address, Hex } from '../evm/types.ts'
import { loadArtifact, loadPermit2Code, PERMIT2_ADDRESS } from './artifacts.ts'
import type { AnvilActions } from './createAnvilActions.ts'

export type { V4PoolKey as PoolKey } from '../defi/getV4PoolId.ts'

/** A deployed V4: core, periphery and the swap helper, lowercase addresses. */
export type UniswapV4 = {
  poolManager: Address
  positionManager: Address
  stateView: Address
  /** `PoolSwapTest`: swaps straight against the PoolManager (tokens approved to it). */
  swapRouter: Address
  abis: { poolManager: Abi; positionManager: Abi; stateView: Abi; swapRouter: Abi }
}

/** PositionManager action codes (`Actions.sol`). */
export const V4_ACTIONS = {
  DECREASE_LIQUIDITY: 0x01,
  MINT_POSITION: 0x02,
  BURN_POSITION: 0x03,
  SETTLE_PAIR: 0x0d,
  TAKE_PAIR: 0x11,
  SWEEP: 0x14,
} as const

const PERMIT2_ABI = parseAbi([
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
])
const ERC20_APPROVE = parseAbi(['function approve(address spender, uint256 amount) returns (bool)'])

/**
 * Deploys Uniswap V4 from `@uniswap/v4-core` and `@uniswap/v4-periphery` (Foundry builds):
 * PoolManager, PositionManager (over Permit2, planted at its canonical address with
 * `anvil_setCode`; `weth` for WRAP/UNWRAP), StateView and PoolSwapTest.
 */
export async function deployUniswapV4({
  actions,
  from,
  weth,
}: {
  actions: Pick<AnvilActions, 'deploy' | 'request'>
  from: Address
  weth: Address
}): Promise<UniswapV4> {
  await actions.request('anvil_setCode', [PERMIT2_ADDRESS, loadPermit2Code()])
  const poolManager = await actions.deploy({
    from,
    artifact: loadArtifact('PoolManager'),
    args: [from],
  })
  // The token descriptor only renders tokenURI; positions never ask it.
  const positionManager = await actions.deploy({
    from,
    artifact: loadArtifact('PositionManager'),
    args: [poolManager, PERMIT2_ADDRESS, 300_000n, poolManager, weth],
  })
  const stateView = await actions.deploy({
    from,
    artifact: loadArtifact('StateView'),
    args: [poolManager],
  })
  const swapRouter = await actions.deploy({
    from,
    artifact: loadArtifact('PoolSwapTest'),
    args: [poolManager],
  })
  return {
    poolManager,
    positionManager,
    stateView,
    swapRouter,
    abis: {
      poolManager: loadArtifact('PoolManager').abi,
      positionManager: loadArtifact('PositionManager').abi,
      stateView: loadArtifact('StateView').abi,
      swapRouter: loadArtifact('PoolSwapTest').abi,
    },
  }
}

/**
 * Lets the PositionManager and the swap helper take `token` from `owner`: ERC20 approvals to
 * Permit2 and to PoolSwapTest, and Permit2's allowance for the PositionManager.
 */
export async function approveV4({
  actions,
  v4,
  owner,
  token,
}: {
  actions: Pick<AnvilActions, 'send'>
  v4: UniswapV4
  owner: Address
  token: Address
}): Promise<void> {
  for (const spender of [PERMIT2_ADDRESS as Address, v4.swapRouter])
    await actions.send({
      from: owner,
      to: token,
      abi: ERC20_APPROVE,
      functionName: 'approve',
      args: [spender, maxUint256],
    })
  await actions.send({
    from: owner,
    to: PERMIT2_ADDRESS as Address,
    abi: PERMIT2_ABI,
    functionName: 'approve',
    args: [token, v4.positionManager, (1n << 160n) - 1n, 2 ** 48 - 1],
  })
}

/**
 * `modifyLiquidities` data: the actions' codes packed, each with its ABI-encoded parameters
 * (`abi.encode(bytes actions, bytes[] params)`).
 */
export function encodeV4Actions(steps: readonly { action: number; params: Hex }[]): Hex {
  const codes = encodePacked(
    steps.map(() => 'uint8'),
    steps.map((s) => s.action),
  )
  return encodeAbiParameters(
    [{ type: 'bytes' }, { type: 'bytes[]' }],
    [codes, steps.map((s) => s.params)],
  )
}

/** MINT_POSITION, SETTLE_PAIR and (for a native pair) SWEEP of the ether left over. */
export function encodeV4Mint({
  key,
  tickLower,
  tickUpper,
  liquidity,
  owner,
}: {
  key: PoolKey
  tickLower: number
  tickUpper: number
  liquidity: bigint
  owner: Address
}): Hex {
  const native = BigInt(key.currency0) === 0n
  return encodeV4Actions([
    {
      action: V4_ACTIONS.MINT_POSITION,
      params: encodeAbiParameters(
        [
          V4_POOL_KEY_ABI,
          { type: 'int24' },
          { type: 'int24' },
          { type: 'uint256' },
          { type: 'uint128' },
          { type: 'uint128' },
          { type: 'address' },
          { type: 'bytes' },
        ],
        [key, tickLower, tickUpper, liquidity, maxUint128, maxUint128, owner, '0x'],
      ),
    },
    {
      action: V4_ACTIONS.SETTLE_PAIR,
      params: encodeAbiParameters(
        [{ type: 'address' }, { type: 'address' }],
        [key.currency0, key.currency1],
      ),
    },
    ...(native
      ? [
          {
            action: V4_ACTIONS.SWEEP,
            params: encodeAbiParameters(
              [{ type: 'address' }, { type: 'address' }],
              [key.currency0, owner],
            ),
          },
        ]
      : []),
  ])
}

/** BURN_POSITION (all liquidity out, fees too, the NFT gone), then TAKE_PAIR to `recipient`. */
export function encodeV4Burn({
  key,
  tokenId,
  recipient,
}: {
  key: PoolKey
  tokenId: bigint
  recipient: Address
}): Hex {
  return encodeV4Actions([
    {
      action: V4_ACTIONS.BURN_POSITION,
      params: encodeAbiParameters(
        [{ type: 'uint256' }, { type: 'uint128' }, { type: 'uint128' }, { type: 'bytes' }],
        [tokenId, 0n, 0n, '0x'],
      ),
    },
    takePair(key, recipient),
  ])
}

function takePair(key: PoolKey, recipient: Address) {
  return {
    action: V4_ACTIONS.TAKE_PAIR,
    params: encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'address' }],
      [key.currency0, key.currency1, recipient],
    ),
  }
}

/** DECREASE_LIQUIDITY of `liquidity` (0: collect fees only), then TAKE_PAIR to `recipient`. */
export function encodeV4Decrease({
  key,
  tokenId,
  liquidity,
  recipient,
}: {
  key: PoolKey
  tokenId: bigint
  liquidity: bigint
  recipient: Address
}): Hex {
  return encodeV4Actions([
    {
      action: V4_ACTIONS.DECREASE_LIQUIDITY,
      params: encodeAbiParameters(
        [
          { type: 'uint256' },
          { type: 'uint256' },
          { type: 'uint128' },
          { type: 'uint128' },
          { type: 'bytes' },
        ],
        [tokenId, liquidity, 0n, 0n, '0x'],
      ),
    },
    takePair(key, recipient),
  ])
}
