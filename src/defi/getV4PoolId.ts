import { encodeAbiParameters, keccak256 } from 'viem'
import type { Address, Hex } from '../evm/types.ts'

/** Uniswap V4's pool identity: `currency0 < currency1`, address zero for the native asset. */
export type V4PoolKey = {
  currency0: Address
  currency1: Address
  fee: number
  tickSpacing: number
  hooks: Address
}

/** The ABI type of a `PoolKey` (a tuple, as the PoolManager and PositionManager take it). */
export const V4_POOL_KEY_ABI = {
  type: 'tuple',
  components: [
    { name: 'currency0', type: 'address' },
    { name: 'currency1', type: 'address' },
    { name: 'fee', type: 'uint24' },
    { name: 'tickSpacing', type: 'int24' },
    { name: 'hooks', type: 'address' },
  ],
} as const

/** Pure: the `PoolId` of a key, keccak256 of its ABI encoding (`PoolIdLibrary.toId`). */
export function getV4PoolId(key: V4PoolKey): Hex {
  return keccak256(encodeAbiParameters([V4_POOL_KEY_ABI], [key]))
}
