import type { TokenStandard } from '../../store/schema.ts'
import type { PoolIdentity, PoolType } from '../poolTypes.ts'
import type { Address } from '../types.ts'

/**
 * What a batch of blocks touched, collected by `deriveHistory` and turned into state rows by
 * `deriveState` once the node's balances at the batch's last block are known.
 */
export type Touched = {
  /** Addresses whose native balance may have changed (senders pay gas, miners earn fees). */
  native: Set<Address>
  /** ERC20 (and WETH) movements per token and holder, summed over the batch. */
  erc20: Map<Address, Map<Address, HolderFlow>>
  /** Minted and burned amounts per ERC20 token, from Transfer events. */
  supplyFlow: Map<Address, { minted: bigint; burned: bigint }>
  /** Every contract the batch called or that emitted a log: a rebasing token may have moved. */
  contracts: Set<Address>
  /** Token standard per token contract seen in events (first one seen wins). */
  standards: Map<Address, TokenStandard>
  /** NFT movements in chain order. */
  nftMoves: NftMove[]
  /** Addresses that emitted DEX pool events, with the pool type the events imply. */
  pools: Map<Address, PoolType>
  /** Pools announced by a factory's PairCreated/PoolCreated (any factory; config decides). */
  poolCreations: PoolIdentity[]
}

export type HolderFlow = {
  inflow: bigint
  outflow: bigint
  /** First inbound transfer in the batch. */
  firstIn: { block: number; time: number } | undefined
  /** Sent this token in the batch. */
  sent: boolean
}

export type NftMove = {
  standard: 'erc721' | 'erc1155'
  contract: Address
  tokenId: bigint
  from: Address
  to: Address
  value: bigint
  block: number
  time: number
}

export function emptyTouched(): Touched {
  return {
    native: new Set(),
    erc20: new Map(),
    supplyFlow: new Map(),
    contracts: new Set(),
    standards: new Map(),
    nftMoves: [],
    pools: new Map(),
    poolCreations: [],
  }
}
