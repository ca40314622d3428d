import { toHex } from 'viem'
import type { TracesMode } from '../../config/types.ts'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import { isMethodUnsupported } from '../rpc/shouldRetry.ts'

/** How this chain's node gives receipts and traces; detected once per indexer start. */
export type FetchCapabilities = {
  receipts: 'block' | 'transaction'
  traces: 'debug' | 'parity' | 'off'
}

/**
 * Probes the node at `blockNumber`: `eth_getBlockReceipts`, else per-transaction receipts;
 * with traces `auto`, `debug_traceBlockByHash` (callTracer), else `trace_block`, else off;
 * `debug` and `parity` ask for that method only.
 * Only "method not supported" answers mean no; other errors propagate.
 */
export async function detectCapabilities({
  rpc,
  blockNumber,
  traces,
  signal,
}: {
  rpc: RpcClient
  blockNumber: bigint
  traces: TracesMode
  signal?: AbortSignal
}): Promise<FetchCapabilities> {
  const tag = toHex(blockNumber)
  const opts = signal ? { signal } : {}
  const supports = async (method: string, params: unknown[]): Promise<boolean> => {
    try {
      await rpc.request({ method, params }, opts)
      return true
    } catch (error) {
      if (isMethodUnsupported(error)) return false
      throw error
    }
  }
  const receipts = (await supports('eth_getBlockReceipts', [tag])) ? 'block' : 'transaction'
  if (traces === 'off') return { receipts, traces: 'off' }
  const hash = async () =>
    (
      await rpc.request<{ hash: string } | null>(
        { method: 'eth_getBlockByNumber', params: [tag, false] },
        opts,
      )
    )?.hash
  if (
    traces !== 'parity' &&
    (await supports('debug_traceBlockByHash', [await hash(), { tracer: 'callTracer' }]))
  ) {
    return { receipts, traces: 'debug' }
  }
  if (traces !== 'debug' && (await supports('trace_block', [tag]))) {
    return { receipts, traces: 'parity' }
  }
  return { receipts, traces: 'off' }
}
