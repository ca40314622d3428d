import type { Address, Hex, InternalTransfer } from '../types.ts'
import { callTypeMovesValue, parseTraceAddress, parseTraceQuantity } from './parseTraceFields.ts'

/** One frame of geth's `callTracer` output (`debug_traceTransaction` / `debug_traceBlock*`). */
export type CallFrame = {
  /** CALL, CALLCODE, STATICCALL, DELEGATECALL, CREATE, CREATE2, SELFDESTRUCT. */
  type: string
  from: Address
  to?: Address | undefined
  /** Hex quantity; absent on STATICCALL and on some DELEGATECALL frames. */
  value?: Hex | undefined
  gas?: Hex | undefined
  gasUsed?: Hex | undefined
  input?: Hex | undefined
  output?: Hex | undefined
  error?: string | undefined
  revertReason?: string | undefined
  calls?: readonly CallFrame[] | undefined
}

export type DecodeCallTraceParameters = {
  /** The transaction's top-level frame. */
  trace: CallFrame
  blockNumber: bigint
  txHash: Hex
  txIndex: number
}

/**
 * Value moved inside one transaction, from its `callTracer` tree, in execution order.
 * The top-level frame is the transaction's own value transfer and is not included. A frame
 * that failed undoes everything under it, so a failed frame and its whole subtree are skipped.
 */
export function decodeCallTrace({
  trace,
  blockNumber,
  txHash,
  txIndex,
}: DecodeCallTraceParameters): InternalTransfer[] {
  const transfers: InternalTransfer[] = []
  if (failed(trace)) return transfers
  const hash = txHash.toLowerCase() as Hex

  const visit = (frame: CallFrame, path: string): void => {
    if (failed(frame)) return
    const callType = String(frame.type).toUpperCase()
    const value = parseTraceQuantity(frame.value)
    const from = parseTraceAddress(frame.from)
    const to = parseTraceAddress(frame.to)
    if (callTypeMovesValue(callType) && value > 0n && from !== undefined && to !== undefined) {
      transfers.push({
        type: 'internal_transfer',
        blockNumber,
        txHash: hash,
        txIndex,
        traceAddress: path,
        callType,
        from,
        to,
        value,
      })
    }
    visitChildren(frame, path)
  }
  const visitChildren = (frame: CallFrame, path: string): void => {
    const calls = Array.isArray(frame.calls) ? frame.calls : []
    for (const [i, child] of calls.entries()) visit(child, path === '' ? String(i) : `${path}.${i}`)
  }

  visitChildren(trace, '')
  return transfers
}

function failed(frame: CallFrame): boolean {
  return typeof frame.error === 'string' && frame.error !== ''
}
