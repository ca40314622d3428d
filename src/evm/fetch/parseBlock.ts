import { RetryableError } from '../../internal/errors.ts'
import type { Address, Hex } from '../types.ts'
import type { ChainBlock, ChainLog, ChainTransaction } from './chainBlock.ts'

/** The node's JSON for a block with full transactions (only the fields Scry reads). */
export type RpcBlockJson = {
  number: Hex
  hash: Hex
  parentHash: Hex
  timestamp: Hex
  miner: Hex
  withdrawals?: { address: Hex }[]
  transactions: RpcTransactionJson[]
}
export type RpcTransactionJson = {
  hash: Hex
  transactionIndex: Hex
  from: Hex
  to: Hex | null
  value: Hex
  nonce: Hex
  gasPrice?: Hex
  type?: Hex
  input: Hex
}
export type RpcReceiptJson = {
  transactionHash: Hex
  blockHash?: Hex
  transactionIndex: Hex
  status?: Hex
  gasUsed: Hex
  effectiveGasPrice?: Hex
  contractAddress?: Hex | null
  logs: RpcLogJson[]
}
export type RpcLogJson = {
  address: Hex
  topics: Hex[]
  data: Hex
  logIndex: Hex
  transactionIndex: Hex
  transactionHash: Hex
  removed?: boolean
}

const lower = (value: Hex): Address => value.toLowerCase() as Address

/**
 * Joins a block and its receipts into a `ChainBlock`. A receipt list that does not match the
 * block (a node still catching up, or a load balancer mixing nodes) is a retryable error: the
 * caller fetches again rather than index half a block.
 */
export function parseBlock({
  block,
  receipts,
}: {
  block: RpcBlockJson
  receipts: readonly RpcReceiptJson[]
}): Omit<ChainBlock, 'internalTransfers'> {
  const number = BigInt(block.number)
  const byHash = new Map(receipts.map((r) => [r.transactionHash.toLowerCase(), r]))
  if (receipts.length !== block.transactions.length) {
    throw new RetryableError(`Receipts do not match block ${number}.`, {
      details: `${block.transactions.length} transactions, ${receipts.length} receipts`,
    })
  }
  const transactions = block.transactions.map((tx): ChainTransaction => {
    const receipt = byHash.get(tx.hash.toLowerCase())
    if (!receipt) {
      throw new RetryableError(`Receipt missing for transaction ${tx.hash} in block ${number}.`)
    }
    // After a reorg a sibling block can hold the same transactions: the receipt must be this
    // block's (nodes behind a load balancer may answer from different branches).
    if (receipt.blockHash && receipt.blockHash.toLowerCase() !== block.hash.toLowerCase()) {
      throw new RetryableError(`Receipt of ${tx.hash} is from another block than ${block.hash}.`)
    }
    const index = Number(tx.transactionIndex)
    const logs = receipt.logs.map(
      (log): ChainLog => ({
        address: lower(log.address),
        topics: log.topics.map((t) => t.toLowerCase() as Hex),
        data: log.data.toLowerCase() as Hex,
        blockNumber: number,
        transactionHash: lower(tx.hash),
        transactionIndex: index,
        logIndex: Number(log.logIndex),
      }),
    )
    return {
      hash: lower(tx.hash),
      index,
      from: lower(tx.from),
      to: tx.to ? lower(tx.to) : null,
      contractAddress: receipt.contractAddress ? lower(receipt.contractAddress) : null,
      value: BigInt(tx.value),
      nonce: Number(tx.nonce),
      gasPrice: BigInt(receipt.effectiveGasPrice ?? tx.gasPrice ?? '0x0'),
      gasUsed: BigInt(receipt.gasUsed),
      type: Number(tx.type ?? '0x0'),
      input: tx.input.toLowerCase() as Hex,
      // Pre-Byzantium receipts have no status; treat them as successful.
      success: receipt.status === undefined ? true : BigInt(receipt.status) === 1n,
      logs,
    }
  })
  transactions.sort((a, b) => a.index - b.index)
  return {
    number,
    hash: lower(block.hash),
    parentHash: lower(block.parentHash),
    timestamp: Number(BigInt(block.timestamp)),
    miner: lower(block.miner),
    withdrawals: (block.withdrawals ?? []).map((w) => lower(w.address)),
    transactions,
  }
}
