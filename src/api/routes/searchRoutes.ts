import { Type } from 'typebox'
import { ApiError } from '../ApiError.ts'
import { markChainsRead } from '../blockNumbersHeader.ts'
import type { RouteModule } from '../createApiServer.ts'
import { ChainIdsQuery, parseChainIds } from '../params.ts'
import { meterRequest } from '../registerAuth.ts'
import { searchTokens } from '../search/searchTokens.ts'

const COST = 2
const LIMIT = { fallback: 10, min: 1, max: 50 }

const TokenHitSchema = Type.Object({
  chain_id: Type.Integer(),
  address: Type.String(),
  token_type: Type.Literal('ERC20'),
  symbol: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  logo: Type.Union([Type.String(), Type.Null()], {
    description: 'Always null: Scry has no logo source',
  }),
  decimals: Type.Union([Type.Integer(), Type.Null()]),
})

/**
 * GET /v1/evm/search/tokens: ERC20 tokens by part of their symbol or name, most liquid first
 * (see `searchTokens`). Unlike the other endpoints, `chain_ids` defaults to every chain this
 * instance indexes.
 */
export const searchRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/v1/evm/search/tokens',
    {
      schema: {
        summary: 'Search ERC20 tokens by symbol or name',
        querystring: Type.Object({
          query: Type.Optional(
            Type.String({
              maxLength: 100,
              description:
                'Part of a symbol or name, case-insensitive; trimmed; under 3 characters matches nothing',
            }),
          ),
          chain_ids: ChainIdsQuery,
          limit: Type.Optional(
            Type.Integer({ description: 'Results, 1 to 50 (default 10); clamped to that range' }),
          ),
        }),
        response: { 200: Type.Array(TokenHitSchema) },
      },
    },
    async (request, reply) => {
      const query = request.query.query?.trim() ?? ''
      if (query === '')
        throw new ApiError('BAD_REQUEST', 'Invalid query: give the text to search for.')
      // No symbol or name holds them, and a NUL ends SQLite's FTS5 query string early.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
      if (/[\u0000-\u001f\u007f]/.test(query))
        throw new ApiError('BAD_REQUEST', 'Invalid query: remove the control characters from it.')
      const limit = Math.min(Math.max(request.query.limit ?? LIMIT.fallback, LIMIT.min), LIMIT.max)
      const input = request.query.chain_ids
      const chainIds =
        input === undefined || input.trim() === ''
          ? ctx.chains.map((c) => c.chainId).sort((a, b) => a - b)
          : parseChainIds({ ctx, input, endpoint: 'token_info' }).chainIds
      await meterRequest({ ctx, request, reply, cost: COST })
      await markChainsRead({ store: ctx.reads, reply, chainIds })
      const hits = await searchTokens({
        db: ctx.reads.db,
        caps: ctx.reads.caps,
        query,
        chainIds,
        limit,
      })
      return hits.map((h) => ({
        chain_id: h.chain_id,
        address: h.address,
        token_type: 'ERC20' as const,
        symbol: h.symbol,
        name: h.name,
        logo: null,
        decimals: h.decimals,
      }))
    },
  )
}
