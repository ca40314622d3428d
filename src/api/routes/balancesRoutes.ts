import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { ApiError } from '../ApiError.ts'
import type { ApiContext } from '../apiContext.ts'
import {
  decodeOffset,
  encodeOffset,
  parseFilterType,
  parseMetadata,
  stablecoinsOf,
} from '../balances/parseBalanceQuery.ts'
import { type PastTarget, parsePastQuery } from '../balances/parsePastQuery.ts'
import {
  type BalancePosition,
  comparePositions,
  priceBalanceRows,
} from '../balances/priceBalanceRows.ts'
import {
  type BalanceRow,
  type BalanceSelection,
  readBalanceRows,
  readOneBalance,
} from '../balances/readBalances.ts'
import { type PastBlock, readBalanceRowsAt, resolvePastBlock } from '../balances/readBalancesAt.ts'
import { BalanceSchema, toBalanceJson } from '../balances/toBalanceJson.ts'
import { markChainsRead, setBlockNumbers } from '../blockNumbersHeader.ts'
import type { RouteModule } from '../createApiServer.ts'
import {
  ADDRESS_PATTERN,
  AddressParam,
  AnswerTimesSchema,
  answerTimes,
  ChainIdsQuery,
  clampLimit,
  FlagQuery,
  LimitQuery,
  lower,
  OffsetQuery,
  parseChainIds,
  parseFlag,
  parseHistoricalPrices,
  parseSingleChainId,
  WarningSchema,
} from '../params.ts'
import { meterRequest } from '../registerAuth.ts'

const LIMIT = { fallback: 1000, max: 1000 }
const SINGLE_TOKEN_COST = 1

const FilterType = Type.Enum(['erc20', 'native'], {
  description: '`erc20` or `native`: only rows of that kind',
})

const BalancesResponse = Type.Object({
  wallet_address: Type.String(),
  balances: Type.Array(BalanceSchema),
  warnings: Type.Optional(Type.Array(WarningSchema)),
  next_offset: Type.Optional(Type.String()),
  ...AnswerTimesSchema,
})

/**
 * EVM balances: a wallet's native and ERC20 balances, its stablecoins, and one asset.
 *
 * Rows are ordered by `value_usd` descending with unpriced rows last, ties by `chain_id`
 * then `address`, the native row first within its chain; the cursor holds that position.
 * `metadata=pools` adds the pricing pool; logo and url are accepted but Scry has no source
 * for them, so they stay omitted.
 */
export const balancesRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/v1/evm/balances/:address',
    {
      schema: {
        summary: 'Native and ERC20 balances of a wallet',
        params: Type.Object({ address: AddressParam }),
        querystring: Type.Object({
          chain_ids: ChainIdsQuery,
          filter_type: Type.Optional(FilterType),
          filters: Type.Optional(FilterType),
          asset_class: Type.Optional(
            Type.Enum(['stablecoin'], { description: '`stablecoin`: only stablecoins' }),
          ),
          metadata: Type.Optional(
            Type.String({ maxLength: 200, description: 'Comma-separated: logo, url, pools' }),
          ),
          exclude_spam_tokens: FlagQuery,
          historical_prices: Type.Optional(
            Type.String({
              maxLength: 100,
              description: 'Up to 3 comma-separated whole numbers of hours in the past',
            }),
          ),
          block_number: BlockNumberQuery,
          at: AtQuery,
          offset: OffsetQuery,
          limit: LimitQuery,
        }),
        response: { 200: BalancesResponse },
      },
    },
    async (request, reply) => {
      const q = request.query
      const past = parsePastQuery({ blockNumber: q.block_number, at: q.at })
      const filterType = parseFilterType({ filterType: q.filter_type, filters: q.filters })
      const metadata = parseMetadata(q.metadata)
      const historicalOffsets = parseHistoricalPrices(q.historical_prices)
      const excludeSpam = parseFlag(q.exclude_spam_tokens, 'exclude_spam_tokens', false)
      const stablecoins = q.asset_class === 'stablecoin'
      return listBalances({
        ctx,
        request,
        reply,
        wallet: lower(request.params.address),
        chainIdsInput: q.chain_ids,
        offset: q.offset,
        limit: clampLimit(q.limit, LIMIT),
        scopeParts: ['balances', filterType ?? '', q.asset_class ?? '', String(excludeSpam)],
        natives: filterType !== 'erc20',
        tokens: filterType !== 'native',
        stablecoins,
        excludeSpam,
        historicalOffsets,
        withPools: metadata.includes('pools'),
        past,
      })
    },
  )

  app.get(
    '/v1/evm/balances/:address/stablecoins',
    {
      schema: {
        summary: 'Stablecoin balances of a wallet',
        params: Type.Object({ address: AddressParam }),
        querystring: Type.Object({
          chain_ids: ChainIdsQuery,
          offset: OffsetQuery,
          limit: LimitQuery,
        }),
        response: { 200: BalancesResponse },
      },
    },
    async (request, reply) => {
      const q = request.query
      return listBalances({
        ctx,
        request,
        reply,
        wallet: lower(request.params.address),
        chainIdsInput: q.chain_ids,
        offset: q.offset,
        limit: clampLimit(q.limit, LIMIT),
        scopeParts: ['stablecoins'],
        natives: true,
        tokens: true,
        stablecoins: true,
        excludeSpam: false,
        historicalOffsets: undefined,
        withPools: false,
        past: undefined,
      })
    },
  )

  app.get(
    '/v1/evm/balances/:address/token/:token_address',
    {
      schema: {
        summary: 'Balance of one token (or the native asset) on one chain',
        params: Type.Object({
          address: AddressParam,
          token_address: Type.String({
            pattern: `^(native|${ADDRESS_PATTERN.slice(1, -1)})$`,
            description: 'ERC20 contract address, or `native`',
          }),
        }),
        querystring: Type.Object({
          chain_ids: Type.String({ maxLength: 100, description: 'Exactly one numeric chain id' }),
          block_number: BlockNumberQuery,
          at: AtQuery,
        }),
        response: {
          200: Type.Object({
            wallet_address: Type.String(),
            balances: Type.Array(BalanceSchema),
            warnings: Type.Optional(Type.Array(WarningSchema)),
            ...AnswerTimesSchema,
          }),
        },
      },
    },
    async (request, reply) => {
      const wallet = lower(request.params.address)
      const rawToken = request.params.token_address
      const address = rawToken === 'native' ? 'native' : lower(rawToken)
      const chainId = parseSingleChainId(request.query.chain_ids)
      const { chainIds, warnings } = parseChainIds({
        ctx,
        input: String(chainId),
        endpoint: 'balances',
      })
      const past = parsePastQuery({ blockNumber: request.query.block_number, at: request.query.at })
      await meterRequest({ ctx, request, reply, cost: SINGLE_TOKEN_COST })
      if (!past) await markChainsRead({ store: ctx.reads, reply, chainIds })
      if (chainIds.length === 0) {
        return { wallet_address: wallet, balances: [], warnings, ...answerTimes(reply) }
      }
      const row = await readOneBalance({ db: ctx.reads.db, wallet, chainId, address })
      if (!row) {
        throw new ApiError('NOT_FOUND', `No ERC20 token ${address} is known on chain ${chainId}.`)
      }
      if (past) {
        const [block] = await readPastBlocks({ ctx, reply, chainIds: [chainId], target: past })
        const [atBlock] = await readBalanceRowsAt({
          db: ctx.reads.db,
          rpc: apiRpc(ctx, chainId),
          block: block!,
          selection: {
            wallet,
            natives: address === 'native',
            tokens: address !== 'native',
            only: { tokens: () => (address === 'native' ? [] : [address]), hasNative: () => true },
          },
        })
        const at = { blockNumber: block!.blockNumber, blockTime: block!.blockTime }
        Object.assign(row, { amount: atBlock?.amount ?? 0n, at })
      }
      const [priced] = await priceBalanceRows({
        db: ctx.reads.db,
        chains: ctx.chains,
        rows: [row],
        historicalOffsets: undefined,
        withPools: false,
        excludeSpam: false,
      })
      return {
        wallet_address: wallet,
        balances: priced ? [toBalanceJson({ ctx, row: priced })] : [],
        ...answerTimes(reply),
      }
    },
  )
}

/** The list endpoints: expand chains, decode the cursor, meter, read one page, shape it. */
async function listBalances({
  ctx,
  request,
  reply,
  wallet,
  chainIdsInput,
  offset,
  limit,
  scopeParts,
  natives,
  tokens,
  stablecoins,
  excludeSpam,
  historicalOffsets,
  withPools,
  past,
}: {
  ctx: ApiContext
  request: FastifyRequest
  reply: FastifyReply
  wallet: `0x${string}`
  chainIdsInput: string | undefined
  offset: string | undefined
  limit: number
  /** Everything besides wallet and chains that decides the rows (not the limit). */
  scopeParts: string[]
  natives: boolean
  tokens: boolean
  stablecoins: boolean
  excludeSpam: boolean
  historicalOffsets: number[] | undefined
  withPools: boolean
  /** `block_number` / `at`: read at a past block instead of the indexed head. */
  past: PastTarget | undefined
}) {
  // A block number belongs to one chain: exactly one numeric chain id.
  if (past && 'blockNumber' in past) parseSingleChainId(chainIdsInput)
  const { chainIds, warnings } = parseChainIds({ ctx, input: chainIdsInput, endpoint: 'balances' })
  const scope = [...scopeParts, JSON.stringify(past ?? null), wallet, chainIds.join(',')].join('|')
  const cursor = decodeOffset({ ctx, scope, offset })
  warnings.push(...cursor.warnings)
  await meterRequest({ ctx, request, reply, cost: chainIds.length })

  const selection: BalanceSelection = {
    wallet,
    chainIds,
    natives,
    tokens,
    ...(stablecoins ? { only: stablecoinsOf(ctx) } : {}),
  }
  let rows: BalanceRow[]
  if (past) {
    const blocks = await readPastBlocks({ ctx, reply, chainIds, target: past })
    const perChain = await Promise.all(
      blocks.map((block) =>
        readBalanceRowsAt({
          db: ctx.reads.db,
          rpc: apiRpc(ctx, block.chainId),
          selection,
          block,
        }),
      ),
    )
    rows = perChain.flat()
  } else {
    await markChainsRead({ store: ctx.reads, reply, chainIds })
    rows = await readBalanceRows({ db: ctx.reads.db, selection })
  }
  const priced = await priceBalanceRows({
    db: ctx.reads.db,
    chains: ctx.chains,
    rows,
    historicalOffsets,
    withPools,
    excludeSpam,
  })
  const after: BalancePosition | undefined = cursor.after
  const rest = after ? priced.filter((r) => comparePositions(r, after) > 0) : priced
  const page = rest.slice(0, limit)
  const last = page.at(-1)
  return {
    wallet_address: wallet,
    balances: page.map((row) => toBalanceJson({ ctx, row, withPool: withPools })),
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(rest.length > limit && last
      ? { next_offset: encodeOffset({ ctx, scope, position: last }) }
      : {}),
    ...answerTimes(reply),
  }
}

const BlockNumberQuery = Type.Optional(
  Type.String({
    maxLength: 20,
    description: 'Read the balances at this past block (exactly one numeric chain id)',
  }),
)
const AtQuery = Type.Optional(
  Type.String({
    maxLength: 40,
    description:
      'Read the balances at this time (ISO 8601 or unix seconds): each chain at its last block at or before it',
  }),
)

/** Resolves the past block of every chain and puts them in the block-numbers header. */
async function readPastBlocks({
  ctx,
  reply,
  chainIds,
  target,
}: {
  ctx: ApiContext
  reply: FastifyReply
  chainIds: readonly number[]
  target: PastTarget
}): Promise<PastBlock[]> {
  const blocks = await Promise.all(
    chainIds.map((chainId) => resolvePastBlock({ db: ctx.reads.db, chainId, target })),
  )
  setBlockNumbers(reply, new Map(blocks.map((b) => [b.chainId, b.blockNumber])))
  return blocks
}

function apiRpc(ctx: ApiContext, chainId: number) {
  const rpc = ctx.evmRpc.forChain(chainId)
  if (!rpc) {
    throw new ApiError('UNAVAILABLE', `No node is configured for chain ${chainId}.`, {
      headers: { 'Retry-After': '5' },
    })
  }
  return rpc
}
