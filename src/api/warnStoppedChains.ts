import { answersWithWarnings } from './answersWithWarnings.ts'
import type { ApiContext } from './apiContext.ts'
import { BLOCK_NUMBERS_HEADER, parseBlockNumbers } from './blockNumbersHeader.ts'
import type { ApiServer } from './createApiServer.ts'
import type { Warning } from './params.ts'

/**
 * A chain whose indexer stopped (a reorg deeper than `finalityDepth`; in this process, or in
 * the process that held it, `stoppedChains`) is still answered from what was indexed, which
 * may be a branch the node has left. `/ready` and `/v1/status` say so; a data answer that
 * read such a chain (its `X-Scry-Block-Numbers` names it) says so too, where the answer has
 * `warnings`: `{ code: 'CHAIN_STOPPED', message, chain_ids }`. Runs before the response
 * profiles convert the answer.
 */
export function warnStoppedChains({
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
    if (read.size === 0) return payload
    const stopped = await ctx.stoppedChains()
    const hit = [...stopped.keys()].filter((chainId) => read.has(String(chainId)))
    if (hit.length === 0) return payload
    const names = hit.map((chainId) => {
      const name = ctx.chains.find((c) => c.chainId === chainId)?.name
      return `${chainId}${name ? ` (${name})` : ''}`
    })
    const warning: Warning & { chain_ids: number[] } = {
      code: 'CHAIN_STOPPED',
      message: `The indexer of chain ${names.join(', ')} stopped after a reorg deeper than its finalityDepth: its part of this answer may be of blocks the node no longer has, and it no longer follows the node (/v1/status says why; the operator resets the chain with scry reset-chain).`,
      chain_ids: hit,
    }
    const body = payload as { warnings?: Warning[] }
    return { ...body, warnings: [...(body.warnings ?? []), warning] }
  })
}
