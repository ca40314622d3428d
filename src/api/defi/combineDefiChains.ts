import { ApiError } from '../ApiError.ts'
import type { Warning } from '../params.ts'
import type { DefiChainResult } from './readDefiChain.ts'
import { compareDefiPositions, type ValuedDefiPosition } from './valueDefiPositions.ts'

export type DefiAnswer = {
  positions: ValuedDefiPosition[]
  totalUsd: number
  /** Chains with positions only, as Sim shows them. */
  totalByChain: Record<string, number>
  warnings: Warning[]
  /** The block each answered chain was read at (`X-Scry-Block-Numbers`). */
  blocks: Map<number, number>
}

/**
 * Merges the chains' results into one answer: positions in answer order, totals, and the
 * warnings (`CHAIN_UNAVAILABLE`, `POSITIONS_SKIPPED`, `POSITIONS_TRUNCATED`). When every chain
 * that had to ask its node failed, 503.
 */
export function combineDefiChains(results: readonly DefiChainResult[]): DefiAnswer {
  const ok = results.flatMap((r) => (r.status === 'ok' ? [r] : []))
  const down = results.flatMap((r) => (r.status === 'unavailable' ? [r.chainId] : []))
  if (down.length > 0 && ok.length === 0) {
    throw new ApiError(
      'UNAVAILABLE',
      `The ${down.length === 1 ? 'node of chain' : 'nodes of chains'} ${down.join(', ')} did not answer; try again shortly.`,
      { headers: { 'Retry-After': '5' } },
    )
  }
  const positions = ok.flatMap((r) => r.positions).sort(compareDefiPositions)
  const totalByChain: Record<string, number> = {}
  for (const p of positions) totalByChain[p.chainId] = (totalByChain[p.chainId] ?? 0) + p.valueUsd
  const warnings: Warning[] = []
  if (down.length > 0) {
    warnings.push({
      code: 'CHAIN_UNAVAILABLE',
      message: `The nodes of these chains failed or did not answer in time; their positions are left out: ${down.join(', ')}.`,
      chain_ids: down,
    })
  }
  const skipped = ok.filter((r) => r.skipped > 0)
  if (skipped.length > 0) {
    const count = skipped.reduce((n, r) => n + r.skipped, 0)
    warnings.push({
      code: 'POSITIONS_SKIPPED',
      message: `${count} holdings that look like positions could not be valued (a call reverted or gave an implausible answer) and are not counted.`,
      chain_ids: skipped.map((r) => r.chainId),
    })
  }
  const truncated = ok.filter((r) => r.truncated > 0)
  if (truncated.length > 0) {
    warnings.push({
      code: 'POSITIONS_TRUNCATED',
      message: `The wallet has more positions than are read per chain; ${truncated.reduce((n, r) => n + r.truncated, 0)} are left out.`,
      chain_ids: truncated.map((r) => r.chainId),
    })
  }
  return {
    positions,
    totalUsd: positions.reduce((sum, p) => sum + p.valueUsd, 0),
    totalByChain,
    warnings,
    blocks: new Map(ok.map((r) => [r.chainId, r.blockNumber])),
  }
}
