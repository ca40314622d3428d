import { Type } from 'typebox'
import { type ActivityFunction, describeCall, toActivityItem } from '../../items/toActivityItem.ts'
import { hexToBytes } from '../../store/hexBytes.ts'
import { keysIn, TRANSACTION_KEY } from '../../store/keysIn.ts'
import { unpackCalldata } from '../../store/packCalldata.ts'
import type { ActivityType, AssetType } from '../../store/schema.ts'
import { activityRecordOf, selectActivity } from '../../store/selectActivity.ts'
import { abiRegistryForApi } from '../abiRegistryForApi.ts'
import type { ApiContext } from '../apiContext.ts'
import { markChainsRead } from '../blockNumbersHeader.ts'
import type { RouteModule } from '../createApiServer.ts'
import {
  ADDRESS_PATTERN,
  AddressParam,
  ChainIdsQuery,
  clampLimit,
  INVALID_OFFSET,
  LimitQuery,
  lower,
  OffsetQuery,
  parseChainIds,
  WarningSchema,
} from '../params.ts'
import { type AssetPrice, readTokenPrices } from '../prices/readTokenPrices.ts'
import { meterRequest } from '../registerAuth.ts'
import { parseListParam } from './parseListParam.ts'

const ACTIVITY_TYPES = ['send', 'receive', 'mint', 'burn', 'swap', 'approve', 'call'] as const
const ASSET_TYPES = ['native', 'erc20', 'erc721', 'erc1155'] as const
const DEFAULT_LIMIT = 20
const MAX_LIMIT = 100
const COST = 3

const DecodedValue = Type.String({ description: 'Arrays and tuples as JSON text' })
const FunctionSchema = Type.Object({
  selector: Type.String(),
  signature: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  inputs: Type.Optional(
    Type.Array(Type.Object({ name: Type.String(), type: Type.String(), value: DecodedValue })),
  ),
})
const TokenMetadataSchema = Type.Object({
  symbol: Type.Optional(Type.String()),
  decimals: Type.Optional(Type.Integer()),
  name: Type.Optional(Type.String()),
  standard: Type.Optional(Type.String()),
  price_usd: Type.Optional(Type.Number({ description: 'Current price' })),
  pool_size: Type.Optional(Type.Number()),
})
const ActivityItemSchema = Type.Object({
  chain_id: Type.Integer(),
  block_number: Type.Integer(),
  block_time: Type.String(),
  tx_hash: Type.String(),
  type: Type.String(),
  asset_type: Type.Optional(Type.String()),
  token_address: Type.Optional(Type.String()),
  from: Type.Optional(Type.String()),
  to: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
  value_usd: Type.Optional(
    Type.Number({ description: 'USD value at the prices when the block was indexed' }),
  ),
  token_metadata: Type.Optional(TokenMetadataSchema),
  from_token_address: Type.Optional(
    Type.String({ description: 'Swaps: token given, or `native`' }),
  ),
  from_token_value: Type.Optional(Type.String()),
  from_token_metadata: Type.Optional(TokenMetadataSchema),
  to_token_address: Type.Optional(Type.String({ description: 'Swaps: token got, or `native`' })),
  to_token_value: Type.Optional(Type.String()),
  to_token_metadata: Type.Optional(TokenMetadataSchema),
  id: Type.Optional(Type.String()),
  spender: Type.Optional(Type.String()),
  function: Type.Optional(FunctionSchema),
  tx_from: Type.String(),
  tx_to: Type.Optional(Type.String()),
  tx_value: Type.String(),
})

/** Keyset position: activity's key columns after the address (migration 0012). */
type Position = [blockTime: number, chainId: number, blockNumber: number, seq: number]

/** GET /v1/evm/activity/{address}: a wallet's activity across chains, newest first. */
export const activityRoutes: RouteModule = async (app, ctx) => {
  const registry = await abiRegistryForApi({ app, ctx })

  app.get(
    '/v1/evm/activity/:address',
    {
      schema: {
        summary:
          'Activity of a wallet (transfers, mints, burns, swaps, approvals, calls), newest first',
        params: Type.Object({ address: AddressParam }),
        querystring: Type.Object({
          chain_ids: ChainIdsQuery,
          activity_type: Type.Optional(
            Type.String({
              maxLength: 200,
              description: `Comma-separated: ${ACTIVITY_TYPES.join(', ')}, transfer (= send and receive)`,
            }),
          ),
          asset_type: Type.Optional(
            Type.String({
              maxLength: 200,
              description: `Comma-separated: ${ASSET_TYPES.join(', ')}`,
            }),
          ),
          token_address: Type.Optional(
            Type.String({ pattern: ADDRESS_PATTERN, description: 'Only items of this token' }),
          ),
          offset: OffsetQuery,
          limit: LimitQuery,
        }),
        response: {
          200: Type.Object({
            activity: Type.Array(ActivityItemSchema),
            next_offset: Type.Optional(Type.String()),
            warnings: Type.Optional(Type.Array(WarningSchema)),
          }),
        },
      },
    },
    async (request, reply) => {
      const address = lower(request.params.address)
      const query = request.query
      const { chainIds, warnings } = parseChainIds({
        ctx,
        input: query.chain_ids,
        endpoint: 'activity',
      })
      const types = parseListParam({
        name: 'activity_type',
        input: query.activity_type,
        allowed: [...ACTIVITY_TYPES, 'transfer'],
      }).flatMap((t) => (t === 'transfer' ? ['send', 'receive'] : [t])) as ActivityType[]
      const assets = parseListParam({
        name: 'asset_type',
        input: query.asset_type,
        allowed: ASSET_TYPES,
      }) as AssetType[]
      const token = query.token_address === undefined ? undefined : lower(query.token_address)
      const limit = clampLimit(query.limit, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT })
      await meterRequest({ ctx, request, reply, cost: COST })
      await markChainsRead({ store: ctx.reads, reply, chainIds })

      const scope = [
        'activity',
        address,
        [...chainIds].sort((a, b) => a - b).join(','),
        [...new Set(types)].sort().join(','),
        [...new Set(assets)].sort().join(','),
        token ?? '',
      ].join('|')
      let after: Position | undefined
      if (query.offset !== undefined) {
        after = toPosition(ctx.cursors.decode(scope, query.offset))
        if (!after) warnings.push(INVALID_OFFSET)
      }
      if (chainIds.length === 0) return { activity: [], ...withWarnings(warnings) }

      const db = ctx.reads.db
      let q = selectActivity(db)
        .where('a.address', '=', hexToBytes(address))
        .where('a.chain_id', 'in', chainIds)
      if (types.length > 0) q = q.where('a.type', 'in', [...new Set(types)])
      if (assets.length > 0) q = q.where('a.asset_type', 'in', [...new Set(assets)])
      if (token !== undefined) {
        // Native items have no token address; swaps name two tokens and are excluded.
        q = q
          .where((eb) => eb(eb.fn.coalesce('a.token_address', 'tr.token'), '=', hexToBytes(token)))
          .where('a.type', '!=', 'swap')
      }
      if (after) {
        const [t, c, b, s] = after
        q = q.where((eb) =>
          eb(
            eb.refTuple('a.block_time', 'a.chain_id', 'a.block_number', 'a.seq'),
            '<',
            eb.tuple(t, c, b, s),
          ),
        )
      }
      const rows = await q
        .orderBy('a.block_time', 'desc')
        .orderBy('a.chain_id', 'desc')
        .orderBy('a.block_number', 'desc')
        .orderBy('a.seq', 'desc')
        .limit(limit + 1)
        .execute()
      const page = rows.slice(0, limit).map(activityRecordOf)

      const tokenKeys = unique(
        page.flatMap((r) =>
          [r.token_address, r.to_token_address].flatMap((t) =>
            t ? [[Number(r.chain_id), t] as const] : [],
          ),
        ),
      )
      const prices = await readPagePrices({ ctx, keys: tokenKeys })
      const tokens =
        tokenKeys.length === 0
          ? []
          : await db
              .selectFrom('tokens')
              .select(['chain_id', 'address', 'name', 'symbol', 'decimals', 'standard'])
              .where(
                keysIn({
                  caps: ctx.reads.caps,
                  columns: [
                    ['chain_id', 'bigint'],
                    ['address', 'text'],
                  ],
                  keys: tokenKeys,
                }),
              )
              .execute()
      const tokenBy = new Map(tokens.map((t) => [`${Number(t.chain_id)}:${t.address}`, t]))

      const callKeys = unique(
        page
          .filter((r) => r.type === 'call')
          .map((r) => [Number(r.chain_id), Number(r.block_number), Number(r.tx_index)] as const),
      )
      const inputs =
        callKeys.length === 0
          ? []
          : await db
              .selectFrom('transactions')
              .select(['chain_id', 'block_number', 'tx_index', 'input'])
              .where(
                keysIn({
                  caps: ctx.reads.caps,
                  columns: TRANSACTION_KEY,
                  keys: callKeys,
                }),
              )
              .execute()
      const inputBy = new Map(
        inputs.map((t) => [
          `${Number(t.chain_id)}:${Number(t.block_number)}:${Number(t.tx_index)}`,
          unpackCalldata(t.input),
        ]),
      )

      const activity = page.map((row) => {
        let fn: ActivityFunction | undefined
        if (row.type === 'call' && row.function_selector) {
          const input = inputBy.get(
            `${Number(row.chain_id)}:${Number(row.block_number)}:${Number(row.tx_index)}`,
          )
          fn = describeCall({ registry, selector: row.function_selector, input })
        }
        const tokenRow = row.token_address
          ? tokenBy.get(`${Number(row.chain_id)}:${row.token_address}`)
          : undefined
        const toToken = row.to_token_address
          ? tokenBy.get(`${Number(row.chain_id)}:${row.to_token_address}`)
          : undefined
        const chainId = Number(row.chain_id)
        return toActivityItem({
          row,
          token: tokenRow,
          toToken,
          priceOf: (asset) => prices.get(`${chainId}:${asset}`),
          fn,
        })
      })

      const last = page[page.length - 1]
      const next =
        rows.length > limit && last
          ? ctx.cursors.encode(scope, [
              Number(last.block_time),
              Number(last.chain_id),
              Number(last.block_number),
              Number(last.seq),
            ] satisfies Position)
          : undefined
      return {
        activity,
        ...(next !== undefined ? { next_offset: next } : {}),
        ...withWarnings(warnings),
      }
    },
  )
}

function toPosition(value: unknown): Position | undefined {
  if (!Array.isArray(value) || value.length !== 4) return undefined
  if (!value.every((v) => Number.isSafeInteger(v))) return undefined
  return value as Position
}

function unique<T extends readonly (string | number)[]>(keys: T[]): T[] {
  const seen = new Map<string, T>()
  for (const k of keys) seen.set(k.join(':'), k)
  return [...seen.values()]
}

function withWarnings<W>(warnings: W[]): { warnings?: W[] } {
  return warnings.length > 0 ? { warnings } : {}
}

/** Current prices of the tokens a page names, keyed `${chainId}:${token}`. */
async function readPagePrices({
  ctx,
  keys,
}: {
  ctx: ApiContext
  keys: readonly (readonly [number, string])[]
}): Promise<Map<string, AssetPrice>> {
  const out = new Map<string, AssetPrice>()
  for (const chain of ctx.chains) {
    const assets = keys.filter(([c]) => c === chain.chainId).map(([, t]) => t as `0x${string}`)
    if (assets.length === 0) continue
    const prices = await readTokenPrices({ db: ctx.reads.db, chain, assets })
    for (const [asset, price] of prices) out.set(`${chain.chainId}:${asset}`, price)
  }
  return out
}
