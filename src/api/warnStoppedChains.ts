import { answersWithWarnings } from './answersWithWarnings.ts'
import type { ApiContext } from './apiContext.ts'
import { BLOCK_NUMBERS_HEADER, parseBlockNumbers } from './blockNumbersHeader.ts'
import type { ApiServer } from './createApiServer.ts'
import type { Warning } from './params.ts'

/**
 * A chain whose indexer in this process stopped (a reorg deeper than `finalityDepth`) is
 * still answered from what was indexed, which may be a branch the node has left. `/ready` and
 * `/v1/status` say so; a data answer that read such a chain (its `X-Scry-Block-Numbers` names
 * it) says so too, where the answer has `warnings`: `{ code: 'CHAIN_STOPPED', message,
 * chain_ids }`. Runs before the response profiles convert the answer.
 */
export function warnStoppedChains({
  app,
  ctx,
}: {
  app: ApiServer
  ctx: Pick<ApiContext, 'nodeHeads' | 'chains'>
}): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode >= 300 || payload === null || typeof payload !== 'object') return payload
    const stopped = ctx.nodeHeads().filter((h) => h.stopped !== undefined)
    if (stopped.length === 0) return payload
    const schema = request.routeOptions.schema
    if (!schema || !answersWithWarnings(schema)) return payload
    const header = reply.getHeader(BLOCK_NUMBERS_HEADER)
    const read = parseBlockNumbers(typeof header === 'string' ? header : undefined)
    const hit = stopped.filter((h) => read.has(String(h.chainId)))
    if (hit.length === 0) return payload
    const names = hit.map((h) => {
      const name = ctx.chains.find((c) => c.chainId === h.chainId)?.name
      return `${h.chainId}${name ? ` (${name})` : ''}`
    })
    const warning: Warning & { chain_ids: number[] } = {
      code: 'CHAIN_STOPPED',
      message: `The indexer of chain ${names.join(', ')} stopped after a reorg deeper than its finalityDepth: its part of this answer may be of blocks the node no longer has, and it no longer follows the node (/v1/status says why; the operator resets the chain with scry reset-chain).`,
      chain_ids: hit.map((h) => h.chainId),
    }
    const body = payload as { warnings?: Warning[] }
    return { ...body, warnings: [...(body.warnings ?? []), warning] }
  })
}
