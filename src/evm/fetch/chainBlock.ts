import type { Address, Hex, InternalTransfer } from '../types.ts'

/** A block as Scry uses it: parsed from the node's JSON, receipts joined to transactions. */
export type ChainBlock = {
  number: bigint
  hash: Hex
  parentHash: Hex
  /** Unix seconds. */
  timestamp: number
  miner: Address
  /** Addresses credited by beacon-chain withdrawals (post-Shanghai chains). */
  withdrawals: Address[]
  transactions: ChainTransaction[]
  /** Value moved inside transactions; `undefined` when traces are off for the chain. */
  internalTransfers: InternalTransfer[] | undefined
}

export type ChainTransaction = {
  hash: Hex
  index: number
  from: Address
  to: Address | null
  contractAddress: Address | null
  value: bigint
  nonce: number
  /** Effective gas price from the receipt. */
  gasPrice: bigint
  gasUsed: bigint
  type: number
  input: Hex
  success: boolean
  logs: ChainLog[]
}

export type ChainLog = {
  address: Address
  topics: Hex[]
  data: Hex
  blockNumber: bigint
  transactionHash: Hex
  transactionIndex: number
  logIndex: number
}
