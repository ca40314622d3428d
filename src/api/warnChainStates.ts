import { answersWithWarnings } from './answersWithWarnings.ts'
import type { ApiContext } from './apiContext.ts'
import { BLOCK_NUMBERS_HEADER, parseBlockNumbers, unindexedChainsOf } from './blockNumbersHeader.ts'
import type { ApiServer } from './createApiServer.ts'
import type { Warning } from './params.ts'

/**
 * Warnings about the chains a data answer read, where the answer has `warnings` (each
 * `{ code, message, chain_ids }`); runs before the response profiles convert the answer.
 * - `CHAIN_STOPPED`: a chain whose indexer stopped (a reorg deeper than `finalityDepth`; in
 *   this process, or in the process that held it, `stoppedChains`) is still answered from
 *   what was indexed, which may be a branch the node has left (its `X-Scry-Block-Numbers`
 *   names it). `/ready` and `/v1/status` say so too.
 * - `CHAIN_NOT_INDEXED`: a chain asked for has no indexed block yet (a first start before its
 *   first batch, or a chain reset with `scry reset-chain`): its part of the answer is empty
 *   because nothing is known yet, not because the wallet holds nothing.
 */
export function warnChainStates({
  app,
  ctx,
}: {
  app: ApiServer
  ctx: Pick<ApiContext, 'stoppedChains' | 'chains'>
}): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode >= 300 || payload === null || typeof payload !== 'object') return payload
    const schema = request.routeOptions.schema
    if (!schema || !answersWithWarnings(schema)) return payload
    const header = reply.getHeader(BLOCK_NUMBERS_HEADER)
    const read = parseBlockNumbers(typeof header === 'string' ? header : undefined)
    const warnings: (Warning & { chain_ids: number[] })[] = []
    const names = (chainIds: readonly number[]) =>
      chainIds
        .map((chainId) => {
          const name = ctx.chains.find((c) => c.chainId === chainId)?.name
          return `${chainId}${name ? ` (${name})` : ''}`
        })
        .join(', ')
    if (read.size > 0) {
      const stopped = await ctx.stoppedChains()
      const hit = [...stopped.keys()].filter((chainId) => read.has(String(chainId)))
      if (hit.length > 0) {
        warnings.push({
          code: 'CHAIN_STOPPED',
          message: `The indexer of chain ${names(hit)} stopped after a reorg deeper than its finalityDepth: its part of this answer may be of blocks the node no longer has, and it no longer follows the node (/v1/status says why; the operator resets the chain with scry reset-chain).`,
          chain_ids: hit,
        })
      }
    }
    const unindexed = unindexedChainsOf(reply)
    if (unindexed.length > 0) {
      warnings.push({
        code: 'CHAIN_NOT_INDEXED',
        message: `Chain ${names(unindexed)} has no indexed block yet: nothing indexed from it is in this answer until its indexer has committed a first batch (/v1/status shows its progress).`,
        chain_ids: [...unindexed],
      })
    }
    if (warnings.length === 0) return payload
    const body = payload as { warnings?: Warning[] }
    return { ...body, warnings: [...(body.warnings ?? []), ...warnings] }
  })
}
