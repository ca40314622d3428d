import type { Address } from './types.ts'

/** The pool families Scry prices through; forks with the same ABI share a type. */
export type PoolType = 'uniswap_v2' | 'uniswap_v3'

export const POOL_TYPES: readonly PoolType[] = ['uniswap_v2', 'uniswap_v3']

/** A factory whose pools may set prices. */
export type DexFactory = { type: PoolType; address: Address }

/** A pool's identity as its factory announced it (or as verified against the factory). */
export type PoolIdentity = {
  address: Address
  type: PoolType
  factory: Address
  token0: Address
  token1: Address
  /** V3 fee tier in hundredths of a bip; null for V2. */
  fee: number | null
}

/** A pool-related log, decoded. */
export type PoolEvent =
  | ({ kind: 'created' } & PoolIdentity)
  | {
      /** The pool's state may have changed (Sync, Swap, Mint, Burn, Initialize, Collect). */
      kind: 'touched'
      type: PoolType
      pool: Address
    }
  | {
      /** A swap through a pool; `recipient` received the output. */
      kind: 'swap'
      type: PoolType
      pool: Address
      recipient: Address
    }
