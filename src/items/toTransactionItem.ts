import type { AbiRegistry, Decoded } from '../evm/abi/createAbiRegistry.ts'
import type { LogRecord, TransactionRecord } from '../store/schema.ts'
import { fromU256 } from '../store/u256.ts'
import { formatTime } from '../utils/formatTime.ts'

type TxRow = TransactionRecord
type LogRow = Pick<LogRecord, 'address' | 'data' | 'topics'>

export type DecodedOut = Pick<Decoded, 'name' | 'inputs'>

export type TransactionItem = {
  chain: string
  chain_id: number
  address: string
  block_time: string
  /** Decimal text, as the hosted API's published schema has it. */
  block_number: string
  block_hash: string
  /** Position in the block, decimal text (published schema). */
  index: string
  hash: string
  from: string
  to?: string
  value: string
  nonce: string
  gas_price: string
  transaction_type: string
  data: string
  success: boolean
  logs: { address: string; data: string; topics: string[]; decoded?: DecodedOut }[]
  decoded?: DecodedOut
}

/** One transaction as the API shows it (spec/decisions.md "Transactions"). */
export function toTransactionItem({
  tx,
  logs,
  wallet,
  chain,
  registry,
}: {
  tx: TxRow
  logs: readonly LogRow[]
  wallet: string
  chain: string
  /** Given when the caller asked for `decode=true`. */
  registry?: AbiRegistry | undefined
}): TransactionItem {
  const item: TransactionItem = {
    chain,
    chain_id: Number(tx.chain_id),
    address: wallet,
    block_time: formatTime(Number(tx.block_time)),
    block_number: String(tx.block_number),
    block_hash: tx.block_hash,
    index: String(tx.tx_index),
    hash: tx.hash,
    from: tx.from_address,
    value: hex(fromU256(tx.value)),
    nonce: hex(BigInt(tx.nonce)),
    gas_price: hex(fromU256(tx.gas_price)),
    transaction_type: hex(BigInt(tx.tx_type)),
    data: tx.input,
    success: Number(tx.success) === 1,
    logs: logs.map((log) => {
      const topics = [...log.topics]
      const out: TransactionItem['logs'][number] = { address: log.address, data: log.data, topics }
      const decoded = registry?.decodeLog({ topics, data: log.data })
      if (decoded) out.decoded = { name: decoded.name, inputs: decoded.inputs }
      return out
    }),
  }
  if (tx.to_address) item.to = tx.to_address
  if (registry && tx.input.length >= 10) {
    const decoded = registry.decodeCall(tx.input)
    if (decoded) item.decoded = { name: decoded.name, inputs: decoded.inputs }
  }
  return item
}

function hex(value: bigint): string {
  return `0x${value.toString(16)}`
}
