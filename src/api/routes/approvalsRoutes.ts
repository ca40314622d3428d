import { Type } from 'typebox'
import { PERMIT2_ADDRESS } from '../../evm/approvals/permit2.ts'
import { formatTime, formatTimeOrNull } from '../../utils/formatTime.ts'
import {
  type ApprovalPosition,
  comparePositions,
  positionOf,
  readApprovals,
  UNLIMITED,
  type WalletApproval,
} from '../approvals/readApprovals.ts'
import { markChainsRead } from '../blockNumbersHeader.ts'
import type { RouteModule } from '../createApiServer.ts'
import {
  AddressParam,
  ChainIdsQuery,
  chainName,
  clampLimit,
  INVALID_OFFSET,
  LimitQuery,
  lower,
  OffsetQuery,
  parseChainIds,
  WarningSchema,
} from '../params.ts'
import { meterRequest } from '../registerAuth.ts'

const LIMIT = { fallback: 100, max: 500 }

const ApprovalSchema = Type.Object({
  chain: Type.String(),
  chain_id: Type.Integer(),
  type: Type.Enum(['erc20', 'permit2', 'approval_for_all'], {
    description:
      '`erc20`: an allowance on the token; `permit2`: an allowance through Permit2; `approval_for_all`: an ERC721/ERC1155 operator',
  }),
  token_address: Type.String(),
  token_standard: Type.Optional(Type.Enum(['ERC20', 'ERC721', 'ERC1155'])),
  token_metadata: Type.Object({
    symbol: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    decimals: Type.Optional(Type.Integer()),
    price_usd: Type.Optional(Type.Number()),
    pool_size: Type.Optional(Type.Number()),
  }),
  spender: Type.String(),
  approval_address: Type.String({
    description: 'The contract that holds the approval (the token, or Permit2): revoke it there',
  }),
  allowance: Type.Optional(
    Type.String({ description: 'Raw integer units; absent for approval_for_all' }),
  ),
  unlimited: Type.Boolean({ description: 'allowance ≥ 2^255, or an operator approval' }),
  expiration: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'Permit2: when the allowance expires; null past the year 9999 (never)',
    }),
  ),
  value_at_risk_usd: Type.Optional(
    Type.Number({ description: 'min(allowance, balance) × price, where the token is priced' }),
  ),
  block_number: Type.Optional(Type.Integer({ description: 'Block of the approval' })),
  block_time: Type.Optional(Type.String()),
  tx_hash: Type.Optional(Type.String()),
})

/**
 * GET /v1/evm/approvals/{address}: the wallet's live approvals (non-zero ERC20 and Permit2
 * allowances, ERC721/ERC1155 operators), by value at risk, then newest; 1 CU per chain.
 */
export const approvalsRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/v1/evm/approvals/:address',
    {
      schema: {
        summary: 'Live token approvals of a wallet, by value at risk',
        params: Type.Object({ address: AddressParam }),
        querystring: Type.Object({
          chain_ids: ChainIdsQuery,
          offset: OffsetQuery,
          limit: LimitQuery,
        }),
        response: {
          200: Type.Object({
            wallet_address: Type.String(),
            approvals: Type.Array(ApprovalSchema),
            warnings: Type.Optional(Type.Array(WarningSchema)),
            next_offset: Type.Optional(Type.String()),
          }),
        },
      },
    },
    async (request, reply) => {
      const wallet = lower(request.params.address)
      const { chainIds, warnings } = parseChainIds({
        ctx,
        input: request.query.chain_ids,
        endpoint: 'balances',
      })
      const limit = clampLimit(request.query.limit, LIMIT)
      const scope = ['approvals', wallet, chainIds.join(',')].join('|')
      let after: ApprovalPosition | undefined
      if (request.query.offset !== undefined) {
        after = parsePosition(ctx.cursors.decode(scope, request.query.offset))
        if (!after) warnings.push(INVALID_OFFSET)
      }
      await meterRequest({ ctx, request, reply, cost: chainIds.length })
      await markChainsRead({ store: ctx.reads, reply, chainIds })

      const all = await readApprovals({ db: ctx.reads.db, chains: ctx.chains, wallet, chainIds })
      const rest = after ? all.filter((a) => comparePositions(positionOf(a), after) > 0) : all
      const page = rest.slice(0, limit)
      const last = page.at(-1)
      return {
        wallet_address: wallet,
        approvals: page.map((a) => toApprovalJson(ctx, a)),
        ...(warnings.length > 0 ? { warnings } : {}),
        ...(rest.length > limit && last
          ? { next_offset: ctx.cursors.encode(scope, positionOf(last)) }
          : {}),
      }
    },
  )
}

const STANDARDS = { erc20: 'ERC20', erc721: 'ERC721', erc1155: 'ERC1155' } as const

function toApprovalJson(ctx: Parameters<RouteModule>[1], a: WalletApproval) {
  const type = a.kind === 'operator' ? 'approval_for_all' : a.kind
  return {
    chain: chainName(ctx, a.chainId),
    chain_id: a.chainId,
    type,
    token_address: a.token,
    ...(a.standard ? { token_standard: STANDARDS[a.standard] } : {}),
    token_metadata: {
      ...(a.symbol !== null ? { symbol: a.symbol } : {}),
      ...(a.name !== null ? { name: a.name } : {}),
      ...(a.decimals !== null ? { decimals: a.decimals } : {}),
      ...(a.price ? { price_usd: a.price.priceUsd, pool_size: a.price.poolSizeUsd } : {}),
    },
    spender: a.spender,
    approval_address: a.kind === 'permit2' ? PERMIT2_ADDRESS : a.token,
    ...(a.allowance !== null ? { allowance: a.allowance.toString() } : {}),
    unlimited: a.allowance === null || a.allowance >= UNLIMITED,
    ...(a.expiration !== null ? { expiration: formatTimeOrNull(a.expiration) } : {}),
    ...(a.valueAtRiskUsd !== null ? { value_at_risk_usd: a.valueAtRiskUsd } : {}),
    ...(a.approvedBlock !== null ? { block_number: a.approvedBlock } : {}),
    ...(a.approvedTime !== null ? { block_time: formatTime(a.approvedTime) } : {}),
    ...(a.txHash !== null ? { tx_hash: a.txHash } : {}),
  } as const
}

const LOWER_ADDRESS = /^0x[0-9a-f]{40}$/

function parsePosition(value: unknown): ApprovalPosition | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { v, t, c, a, s, k } = value as Record<string, unknown>
  const numOrNull = (x: unknown) => x === null || (typeof x === 'number' && Number.isFinite(x))
  if (!numOrNull(v) || !numOrNull(t) || typeof c !== 'number' || !Number.isSafeInteger(c))
    return undefined
  if (typeof a !== 'string' || !LOWER_ADDRESS.test(a)) return undefined
  if (typeof s !== 'string' || !LOWER_ADDRESS.test(s)) return undefined
  if (k !== 'erc20' && k !== 'permit2' && k !== 'operator') return undefined
  return { v: v as number | null, t: t as number | null, c, a, s, k }
}
