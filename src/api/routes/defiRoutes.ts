import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { Address } from '../../evm/types.ts'
import type { ApiContext } from '../apiContext.ts'
import { markChainsUnindexed, setBlockNumbers } from '../blockNumbersHeader.ts'
import type { RouteModule } from '../createApiServer.ts'
import { combineDefiChains, type DefiAnswer } from '../defi/combineDefiChains.ts'
import { listDefiProtocols } from '../defi/listDefiProtocols.ts'
import { readDefiChain } from '../defi/readDefiChain.ts'
import { DefiBetaResponse, toDefiBetaJson } from '../defi/toDefiBetaJson.ts'
import { DefiV1Response, toDefiV1Json } from '../defi/toDefiV1Json.ts'
import {
  AddressParam,
  ChainIdsQuery,
  chainName,
  FlagQuery,
  lower,
  parseChainIds,
  parseFlag,
} from '../params.ts'
import { meterRequest } from '../registerAuth.ts'

/** Compute units per chain after tag expansion: Sim's current price, and interface.md's. */
const V1_COST = 4
const BETA_COST = 10
const SUPPORTED_PROTOCOLS_COST = 1
/** Candidates read per chain; more → `POSITIONS_TRUNCATED`. */
const MAX_POSITIONS_PER_CHAIN = 200
/** A chain whose node takes longer is left out (`CHAIN_UNAVAILABLE`). */
const CHAIN_TIMEOUT_MS = 10_000

const Params = Type.Object({ address: AddressParam })
const Query = Type.Object({ chain_ids: ChainIdsQuery })

/**
 * DeFi positions (Uniswap V2 LP tokens, Uniswap V3 and V4 position NFTs, ERC4626 vault
 * shares listed or found at ingest, Lido stETH/wstETH, Aave V2/V3 deposits and debt), valued
 * from the node at each chain's indexed block and priced with Scry's prices (docs/defi.md).
 * One computation, two shapes: `/v1` (Sim's current, nested) and `/beta` (interface.md, flat).
 */
export const defiRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/v1/evm/defi/positions/:address',
    {
      schema: {
        summary: 'DeFi positions of a wallet (nested shape)',
        params: Params,
        querystring: Query,
        response: { 200: DefiV1Response },
      },
    },
    async (request, reply) => {
      const answer = await answerDefi({
        ctx,
        request,
        reply,
        wallet: lower(request.params.address),
        chainIdsInput: request.query.chain_ids,
        costPerChain: V1_COST,
      })
      return toDefiV1Json({ answer, chainName: (id) => chainName(ctx, id) })
    },
  )

  app.get(
    '/beta/evm/defi/positions/:address',
    {
      schema: {
        summary: 'DeFi positions of a wallet (flat shape)',
        params: Params,
        querystring: Query,
        response: { 200: DefiBetaResponse },
      },
    },
    async (request, reply) => {
      const wallet = lower(request.params.address)
      const answer = await answerDefi({
        ctx,
        request,
        reply,
        wallet,
        chainIdsInput: request.query.chain_ids,
        costPerChain: BETA_COST,
      })
      return toDefiBetaJson({ answer, wallet })
    },
  )

  app.get(
    '/v1/evm/defi/supported-protocols',
    {
      schema: {
        summary: 'DeFi protocol families served, per chain',
        querystring: Type.Object({
          include_preview_chains: FlagQuery,
          include_preview_protocols: FlagQuery,
        }),
        response: { 200: SupportedProtocolsResponse },
      },
    },
    async (request, reply) => {
      const q = request.query
      const includePreviewChains = parseFlag(
        q.include_preview_chains,
        'include_preview_chains',
        false,
      )
      const includePreviewProtocols = parseFlag(
        q.include_preview_protocols,
        'include_preview_protocols',
        false,
      )
      await meterRequest({ ctx, request, reply, cost: SUPPORTED_PROTOCOLS_COST })
      const chains = await Promise.all(
        ctx.chains.map(async (chain) => ({
          ...chain,
          defi: await ctx.defiDeployments.forChain(chain),
        })),
      )
      return {
        protocol_families: listDefiProtocols({
          chains,
          catalogue: ctx.catalogue,
          includePreviewChains,
          includePreviewProtocols,
        }),
      }
    },
  )
}

const SupportedProtocolsResponse = Type.Object({
  protocol_families: Type.Array(
    Type.Object({
      family: Type.String({
        description:
          '`uniswap_v2`, `uniswap_v3`, `uniswap_v4`, `aave_v2`, `aave_v3`, `erc4626` or `lido`',
      }),
      chains: Type.Array(
        Type.Object({
          chain_id: Type.Integer(),
          chain_name: Type.String(),
          status: Type.Union([Type.Literal('stable'), Type.Literal('preview')], {
            description:
              '`preview`: indexed from a startBlock after a deployment of the family, so holders idle since may be missing (kept by include_preview_chains), or marked preview in config (kept by include_preview_protocols)',
          }),
        }),
      ),
      sub_protocols: Type.Array(Type.String()),
    }),
  ),
})

async function answerDefi({
  ctx,
  request,
  reply,
  wallet,
  chainIdsInput,
  costPerChain,
}: {
  ctx: ApiContext
  request: FastifyRequest
  reply: FastifyReply
  wallet: Address
  chainIdsInput: string | undefined
  costPerChain: number
}): Promise<DefiAnswer> {
  const { chainIds, warnings } = parseChainIds({
    ctx,
    input: chainIdsInput,
    endpoint: 'defi_positions',
  })
  await meterRequest({ ctx, request, reply, cost: costPerChain * chainIds.length })
  const results = await Promise.all(
    ctx.chains
      .filter((chain) => chainIds.includes(chain.chainId))
      .map((chain) =>
        readDefiChain({
          ctx,
          chain,
          wallet,
          maxPositions: MAX_POSITIONS_PER_CHAIN,
          timeoutMs: CHAIN_TIMEOUT_MS,
        }),
      ),
  )
  const answer = combineDefiChains(results)
  setBlockNumbers(reply, answer.blocks)
  markChainsUnindexed(
    reply,
    results.filter((r) => r.status === 'unindexed').map((r) => r.chainId),
  )
  return { ...answer, warnings: [...warnings, ...answer.warnings] }
}
