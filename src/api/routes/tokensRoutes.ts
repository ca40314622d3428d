import { type Static, Type } from 'typebox'
import { nativeCurrency } from '../../chains/nativeCurrencies.ts'
import { fromU256, isStoredU256, U256_ZERO } from '../../store/u256.ts'
import { formatTime } from '../../utils/formatTime.ts'
import { ApiError } from '../ApiError.ts'
import type { ApiContext } from '../apiContext.ts'
import { markChainsRead } from '../blockNumbersHeader.ts'
import type { RouteModule } from '../createApiServer.ts'
import {
  ADDRESS_PATTERN,
  AddressParam,
  chainName,
  clampLimit,
  INVALID_OFFSET,
  lower,
  OffsetQuery,
  parseHistoricalPrices,
  parseSingleChainId,
  type Warning,
  WarningSchema,
} from '../params.ts'
import { HistoricalPricesSchema } from '../prices/priceSchemas.ts'
import { readHistoricalPrices } from '../prices/readHistoricalPrices.ts'
import { readTokenPrices } from '../prices/readTokenPrices.ts'
import type { ProfileShape } from '../profiles/registerProfiles.ts'
import { meterRequest } from '../registerAuth.ts'

const TOKEN_INFO_COST = 2
const TOKEN_HOLDERS_COST = 2
const HOLDERS_LIMIT = { fallback: 500, max: 500 }

const TokenRecord = Type.Object({
  chain_id: Type.Integer(),
  chain: Type.String(),
  symbol: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  decimals: Type.Optional(Type.Integer()),
  total_supply: Type.Optional(Type.String()),
  price_usd: Type.Optional(Type.Number()),
  pool_size: Type.Optional(Type.Number()),
  fully_diluted_value: Type.Optional(
    Type.Number({ description: 'price_usd × total_supply (ERC20 only)' }),
  ),
  historical_prices: Type.Optional(HistoricalPricesSchema),
})
type TokenRecord = Static<typeof TokenRecord>

const Holder = Type.Object({
  wallet_address: Type.String(),
  balance: Type.String(),
  first_acquired: Type.Optional(Type.String()),
  has_initiated_transfer: Type.Boolean(),
})
const holdersFields = {
  token_address: Type.String(),
  chain_id: Type.Integer(),
  holders: Type.Array(Holder),
}
const HoldersResponse = Type.Object({
  ...holdersFields,
  next_offset: Type.Union([Type.String(), Type.Null()]),
})

/** The `sim` profile: no `next_offset` on the last page (the published schema has no null). */
const simHolders: ProfileShape = {
  schema: Type.Object({ ...holdersFields, next_offset: Type.Optional(Type.String()) }),
  from: ({ next_offset, ...rest }: Static<typeof HoldersResponse>) =>
    next_offset === null ? rest : { ...rest, next_offset },
}

/**
 * GET /v1/evm/token-info/{address} (native asset or ERC20 metadata, supply and price) and
 * GET /v1/evm/token-holders/{chain_id}/{address} (holders by balance, highest first).
 * Unpriced tokens have no price fields; `logo` has no source and is omitted.
 */
export const tokensRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/v1/evm/token-info/:address',
    {
      schema: {
        summary: 'Metadata and supply of a native asset or an ERC20 token on one chain',
        params: Type.Object({
          address: Type.String({
            pattern: `^(native|${ADDRESS_PATTERN.slice(1, -1)})$`,
            description: 'The word `native` or an ERC20 contract address',
          }),
        }),
        querystring: Type.Object({
          chain_ids: Type.String({ maxLength: 100, description: 'Exactly one numeric chain id' }),
          historical_prices: Type.Optional(
            Type.String({
              maxLength: 100,
              description: 'Up to 3 comma-separated whole numbers of hours in the past',
            }),
          ),
          limit: Type.Optional(Type.Integer({ minimum: 0, description: 'Page size' })),
          offset: OffsetQuery,
        }),
        response: {
          200: Type.Object({
            contract_address: Type.String(),
            tokens: Type.Array(TokenRecord),
            warnings: Type.Optional(Type.Array(WarningSchema)),
            next_offset: Type.Optional(Type.String()),
          }),
        },
      },
    },
    async (request, reply) => {
      const { address: rawAddress } = request.params
      const { chain_ids, historical_prices, limit, offset } = request.query
      const address = rawAddress === 'native' ? 'native' : lower(rawAddress)
      const chainId = parseSingleChainId(chain_ids)
      const hours = parseHistoricalPrices(historical_prices)
      const warnings: Warning[] = []
      const supported = isServed({ ctx, chainId, endpoint: 'token_info' })
      if (!supported) {
        warnings.push({
          code: 'UNSUPPORTED_CHAIN_IDS',
          message: `These chain ids are not supported here for this endpoint: ${chainId}.`,
          chain_ids: [chainId],
        })
      }
      const scope = `token-info|${address}|${chainId}|${hours?.join(',') ?? ''}`
      let start = 0
      if (offset !== undefined) {
        const position = ctx.cursors.decode(scope, offset)
        if (typeof position === 'number' && Number.isSafeInteger(position) && position >= 0)
          start = position
        else warnings.push(INVALID_OFFSET)
      }
      await meterRequest({ ctx, request, reply, cost: TOKEN_INFO_COST })
      await markChainsRead({ store: ctx.reads, reply, chainIds: supported ? [chainId] : [] })

      const records: TokenRecord[] = []
      if (supported) records.push(await readTokenRecord({ ctx, chainId, address, hours }))
      // One record per chain and one chain per request: paging exists for the interface's sake.
      const end = limit === undefined ? records.length : start + limit
      const tokens = records.slice(start, end)
      return {
        contract_address: address,
        tokens,
        ...(warnings.length > 0 ? { warnings } : {}),
        ...(end < records.length ? { next_offset: ctx.cursors.encode(scope, end) } : {}),
      }
    },
  )

  app.get(
    '/v1/evm/token-holders/:chain_id/:address',
    {
      config: { profiles: { sim: simHolders } },
      schema: {
        summary: 'Holders of an ERC20 token, highest balance first',
        params: Type.Object({
          chain_id: Type.Integer({
            minimum: 1,
            maximum: Number.MAX_SAFE_INTEGER,
            description: 'Numeric chain id',
          }),
          address: AddressParam,
        }),
        querystring: Type.Object({
          limit: Type.Optional(
            Type.Integer({ minimum: 1, description: 'Page size, 1 to 500 (default 500)' }),
          ),
          offset: OffsetQuery,
        }),
        response: { 200: HoldersResponse },
      },
    },
    async (request, reply) => {
      const { chain_id: chainId } = request.params
      const token = lower(request.params.address)
      const limit = clampLimit(request.query.limit, HOLDERS_LIMIT)
      if (!isServed({ ctx, chainId, endpoint: 'token_holders' })) {
        throw new ApiError('NOT_FOUND', `Token holders are not served for chain ${chainId}.`)
      }
      const scope = `token-holders|${chainId}|${token}`
      // An offset this server did not issue serves the first page (this response has no warnings).
      const after =
        request.query.offset === undefined
          ? undefined
          : parseHolderPosition(ctx.cursors.decode(scope, request.query.offset))
      await meterRequest({ ctx, request, reply, cost: TOKEN_HOLDERS_COST })
      await markChainsRead({ store: ctx.reads, reply, chainIds: [chainId] })

      const known = await ctx.reads.db
        .selectFrom('tokens')
        .select('standard')
        .where('chain_id', '=', chainId)
        .where('address', '=', token)
        .executeTakeFirst()
      if (known?.standard !== 'erc20') {
        throw new ApiError('NOT_FOUND', `No ERC20 token ${token} is known on chain ${chainId}.`)
      }

      // Keyset range scan on token_balances_holders (chain_id, token, balance desc, address).
      let query = ctx.reads.db
        .selectFrom('token_balances')
        .select(['address', 'balance', 'first_acquired_time', 'has_initiated_transfer'])
        .where('chain_id', '=', chainId)
        .where('token', '=', token)
        .where('balance', '>', U256_ZERO)
      if (after) {
        // The `<=` bound is what lets the index seek to the position; the OR only drops ties.
        query = query
          .where('balance', '<=', after.balance)
          .where((eb) =>
            eb.or([
              eb('balance', '<', after.balance),
              eb.and([eb('balance', '=', after.balance), eb('address', '>', after.address)]),
            ]),
          )
      }
      const rows = await query
        .orderBy('balance', 'desc')
        .orderBy('address', 'asc')
        .limit(limit + 1)
        .execute()
      const page = rows.slice(0, limit)
      const last = page[page.length - 1]
      return {
        token_address: token,
        chain_id: chainId,
        holders: page.map((row) => ({
          wallet_address: row.address,
          balance: fromU256(row.balance).toString(),
          ...(row.first_acquired_time === null
            ? {}
            : { first_acquired: formatTime(row.first_acquired_time) }),
          has_initiated_transfer: row.has_initiated_transfer === 1,
        })),
        next_offset:
          rows.length > limit && last
            ? ctx.cursors.encode(scope, { balance: last.balance, address: last.address })
            : null,
      }
    },
  )
}

const LOWER_ADDRESS = /^0x[0-9a-f]{40}$/

/** In the catalogue, enabled here, and the endpoint supported there. */
function isServed({
  ctx,
  chainId,
  endpoint,
}: {
  ctx: ApiContext
  chainId: number
  endpoint: 'token_info' | 'token_holders'
}): boolean {
  const chain = ctx.catalogue.find((c) => c.chainId === chainId)
  return chain?.endpoints[endpoint] === true && ctx.chains.some((c) => c.chainId === chainId)
}

function parseHolderPosition(position: unknown): { balance: string; address: string } | undefined {
  if (typeof position !== 'object' || position === null) return undefined
  const { balance, address } = position as Record<string, unknown>
  if (typeof balance !== 'string' || !isStoredU256(balance)) return undefined
  if (typeof address !== 'string' || !LOWER_ADDRESS.test(address)) return undefined
  return { balance, address }
}

/** The chain's native asset, or an ERC20 token the indexer has seen; otherwise 404. */
async function readTokenRecord({
  ctx,
  chainId,
  address,
  hours,
}: {
  ctx: ApiContext
  chainId: number
  address: 'native' | `0x${string}`
  hours: number[] | undefined
}): Promise<TokenRecord> {
  const chain = chainName(ctx, chainId)
  const config = ctx.chains.find((c) => c.chainId === chainId)
  const db = ctx.reads.db
  const price = config
    ? (await readTokenPrices({ db, chain: config, assets: [address] })).get(address)
    : undefined
  const history =
    config && hours
      ? (await readHistoricalPrices({ db, chain: config, assets: [address], offsets: hours })).get(
          address,
        )
      : undefined
  const priced = {
    ...(price ? { price_usd: price.priceUsd } : {}),
    ...(hours ? { historical_prices: history ?? [] } : {}),
  }
  if (address === 'native') {
    return { chain_id: chainId, chain, ...nativeCurrency(chainId), ...priced }
  }
  const row = await ctx.reads.db
    .selectFrom('tokens')
    .select(['standard', 'name', 'symbol', 'decimals', 'total_supply'])
    .where('chain_id', '=', chainId)
    .where('address', '=', address)
    .executeTakeFirst()
  // token-info describes native assets and ERC20 tokens; NFT contracts are not tokens here.
  if (row?.standard !== 'erc20') {
    throw new ApiError('NOT_FOUND', `No ERC20 token ${address} is known on chain ${chainId}.`)
  }
  return {
    chain_id: chainId,
    chain,
    ...(row.symbol === null ? {} : { symbol: row.symbol }),
    ...(row.name === null ? {} : { name: row.name }),
    ...(row.decimals === null ? {} : { decimals: row.decimals }),
    ...(row.total_supply === null ? {} : { total_supply: fromU256(row.total_supply).toString() }),
    ...priced,
    ...(price ? { pool_size: price.poolSizeUsd } : {}),
    ...(price && row.total_supply !== null && row.decimals !== null
      ? {
          fully_diluted_value:
            (Number(fromU256(row.total_supply)) / 10 ** row.decimals) * price.priceUsd,
        }
      : {}),
  }
}
