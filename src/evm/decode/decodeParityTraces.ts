import type { Address, Hex, InternalTransfer } from '../types.ts'
import { callTypeMovesValue, parseTraceAddress, parseTraceQuantity } from './parseTraceFields.ts'

/** One entry of `trace_block` / `trace_transaction` (OpenEthereum, Erigon, Reth, Nethermind). */
export type ParityTrace = {
  action: {
    /** call, delegatecall, staticcall, callcode (on `call` traces). */
    callType?: string | undefined
    from?: Address | undefined
    to?: Address | undefined
    value?: Hex | undefined
    /** create or create2 (on `create` traces, where the node says). */
    creationMethod?: string | undefined
    /** The destroyed contract (on `suicide` traces). */
    address?: Address | undefined
    refundAddress?: Address | undefined
    balance?: Hex | undefined
    gas?: Hex | undefined
    input?: Hex | undefined
    init?: Hex | undefined
  }
  result?: { address?: Address | undefined } | null | undefined
  error?: string | undefined
  traceAddress: readonly number[]
  transactionHash: Hex | null
  transactionPosition: number | null
  type: 'call' | 'create' | 'suicide' | 'reward' | (string & {})
  subtraces?: number | undefined
  blockHash?: Hex | undefined
  blockNumber?: number | undefined
}

export type DecodeParityTracesParameters = {
  traces: readonly ParityTrace[]
  blockNumber: bigint
}

/**
 * Value moved inside transactions, from a block's parity-style traces, in input order.
 * Top-level frames (the transactions themselves) and block rewards are not included; a
 * failed frame and every frame under it (traceAddress starting with its own) are skipped.
 */
export function decodeParityTraces({
  traces,
  blockNumber,
}: DecodeParityTracesParameters): InternalTransfer[] {
  const failedPaths = new Map<string, number[][]>()
  for (const trace of traces) {
    if (trace.transactionHash === null || !failed(trace)) continue
    const key = trace.transactionHash.toLowerCase()
    const paths = failedPaths.get(key) ?? []
    paths.push([...trace.traceAddress])
    failedPaths.set(key, paths)
  }

  const transfers: InternalTransfer[] = []
  for (const trace of traces) {
    if (trace.transactionHash === null || trace.transactionPosition === null) continue
    if (trace.traceAddress.length === 0) continue
    const txHash = trace.transactionHash.toLowerCase() as Hex
    const failedAbove = failedPaths.get(txHash) ?? []
    if (failedAbove.some((path) => startsWith(trace.traceAddress, path))) continue
    const move = valueMove(trace)
    if (move === undefined) continue
    transfers.push({
      type: 'internal_transfer',
      blockNumber,
      txHash,
      txIndex: trace.transactionPosition,
      traceAddress: trace.traceAddress.join('.'),
      ...move,
    })
  }
  return transfers
}

type ValueMove = { callType: string; from: Address; to: Address; value: bigint }

function valueMove(trace: ParityTrace): ValueMove | undefined {
  const { action } = trace
  let move: { callType: string; from: unknown; to: unknown; value: bigint }
  switch (trace.type) {
    case 'call':
      move = {
        callType: (action.callType ?? 'call').toUpperCase(),
        from: action.from,
        to: action.to,
        value: parseTraceQuantity(action.value),
      }
      break
    case 'create':
      move = {
        callType: (action.creationMethod ?? 'create').toUpperCase(),
        from: action.from,
        to: trace.result?.address,
        value: parseTraceQuantity(action.value),
      }
      break
    case 'suicide':
      move = {
        callType: 'SELFDESTRUCT',
        from: action.address,
        to: action.refundAddress,
        value: parseTraceQuantity(action.balance),
      }
      break
    default:
      // `reward` (block and uncle rewards) is issuance, not a transfer inside a transaction.
      return undefined
  }
  const from = parseTraceAddress(move.from)
  const to = parseTraceAddress(move.to)
  if (from === undefined || to === undefined) return undefined
  if (move.value === 0n || !callTypeMovesValue(move.callType)) return undefined
  return { callType: move.callType, from, to, value: move.value }
}

function failed(trace: ParityTrace): boolean {
  return typeof trace.error === 'string' && trace.error !== ''
}

function startsWith(path: readonly number[], prefix: readonly number[]): boolean {
  if (prefix.length > path.length) return false
  return prefix.every((index, i) => path[i] === index)
}
