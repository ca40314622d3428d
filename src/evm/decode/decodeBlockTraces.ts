import { NonRetryableError } from '../../internal/errors.ts'
import type { Hex, InternalTransfer } from '../types.ts'
import { type CallFrame, decodeCallTrace } from './decodeCallTrace.ts'

/** One entry of `debug_traceBlockByNumber` / `debug_traceBlockByHash` with `callTracer`. */
export type BlockTraceEntry = {
  /** Present on geth ≥ 1.11 and anvil; older nodes leave it out. */
  txHash?: Hex | undefined
  result?: CallFrame | undefined
  /** Set instead of `result` when the node could not trace this transaction. */
  error?: string | undefined
}

export type DecodeBlockTracesParameters = {
  /** The node's answer: one entry per transaction, in block order. */
  traces: readonly BlockTraceEntry[]
  blockNumber: bigint
  /** The block's transaction hashes, in order; needed when the node omits `txHash`. */
  txHashes?: readonly Hex[] | undefined
}

/**
 * Internal transfers of a whole block from `debug_traceBlockByHash` (callTracer). Entries
 * are in transaction order, so an entry's index is its transaction index.
 *
 * Throws `NonRetryableError` when the answer cannot be used as a whole (a transaction the
 * node failed to trace, a count that does not match the block): dropping one transaction's
 * transfers silently would leave balances wrong, so the caller must fetch it another way.
 */
export function decodeBlockTraces({
  traces,
  blockNumber,
  txHashes,
}: DecodeBlockTracesParameters): InternalTransfer[] {
  if (txHashes !== undefined && txHashes.length !== traces.length)
    throw new NonRetryableError('Block trace does not match the block.', {
      details: `block ${blockNumber} has ${txHashes.length} transactions, trace has ${traces.length}`,
    })
  return traces.flatMap((entry, txIndex) => {
    const txHash = entry.txHash ?? txHashes?.[txIndex]
    if (txHash === undefined)
      throw new NonRetryableError('Block trace entry has no transaction hash.', {
        details: `block ${blockNumber}, transaction index ${txIndex}`,
      })
    if (
      txHashes?.[txIndex] !== undefined &&
      txHashes[txIndex].toLowerCase() !== txHash.toLowerCase()
    )
      throw new NonRetryableError('Block trace does not match the block.', {
        details: `block ${blockNumber}, transaction index ${txIndex}: trace is for ${txHash}`,
      })
    if (entry.result === undefined || entry.result === null)
      throw new NonRetryableError('Node could not trace a transaction.', {
        details: `block ${blockNumber}, transaction ${txHash}: ${entry.error ?? 'no result'}`,
      })
    return decodeCallTrace({ trace: entry.result, blockNumber, txHash, txIndex })
  })
}
