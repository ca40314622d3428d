import { Type } from 'typebox'
import { toTransactionItem } from '../../items/toTransactionItem.ts'
import { abiRegistryForApi } from '../abiRegistryForApi.ts'
import { markChainsRead } from '../blockNumbersHeader.ts'
import type { RouteModule } from '../createApiServer.ts'
import {
  AddressParam,
  AnswerTimesSchema,
  answerTimes,
  ChainIdsQuery,
  chainName,
  clampLimit,
  FlagQuery,
  INVALID_OFFSET,
  LimitQuery,
  lower,
  OffsetQuery,
  parseChainIds,
  parseFlag,
  WarningSchema,
} from '../params.ts'
import { meterRequest } from '../registerAuth.ts'
import { type Position, readWalletTransactions } from '../transactions/readWalletTransactions.ts'

const DEFAULT_LIMIT = 100
const MAX_LIMIT = 100
const COST = 1

const DecodedSchema = Type.Object({
  name: Type.String(),
  inputs: Type.Array(
    Type.Object({
      name: Type.String(),
      type: Type.String(),
      value: Type.Union([Type.String(), Type.Array(Type.String())], {
        description: 'A string, or an array of strings; tuples and nested arrays as JSON text',
      }),
    }),
  ),
})
const TransactionSchema = Type.Object({
  chain: Type.String(),
  chain_id: Type.Integer(),
  address: Type.String(),
  block_time: Type.String(),
  block_number: Type.String({ description: 'Decimal' }),
  block_hash: Type.String(),
  index: Type.String({ description: 'Position in the block, decimal' }),
  hash: Type.String(),
  from: Type.String(),
  to: Type.Optional(Type.String()),
  value: Type.String({ description: 'hex' }),
  nonce: Type.String({ description: 'hex' }),
  gas_price: Type.String({ description: 'hex' }),
  transaction_type: Type.String({ description: 'hex' }),
  data: Type.String(),
  success: Type.Boolean(),
  logs: Type.Array(
    Type.Object({
      address: Type.String(),
      data: Type.String(),
      topics: Type.Array(Type.String()),
      decoded: Type.Optional(DecodedSchema),
    }),
  ),
  decoded: Type.Optional(DecodedSchema),
})

/** GET /v1/evm/transactions/{address}: transactions touching a wallet, newest first. */
export const transactionsRoutes: RouteModule = async (app, ctx) => {
  const registry = await abiRegistryForApi({ app, ctx })

  app.get(
    '/v1/evm/transactions/:address',
    {
      schema: {
        summary: 'Transactions that involve a wallet, with their logs, newest first',
        params: Type.Object({ address: AddressParam }),
        querystring: Type.Object({
          chain_ids: ChainIdsQuery,
          decode: FlagQuery,
          offset: OffsetQuery,
          limit: LimitQuery,
        }),
        response: {
          200: Type.Object({
            wallet_address: Type.String(),
            transactions: Type.Array(TransactionSchema),
            next_offset: Type.Optional(Type.String()),
            warnings: Type.Optional(Type.Array(WarningSchema)),
            ...AnswerTimesSchema,
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
        endpoint: 'transactions',
      })
      const decode = parseFlag(query.decode, 'decode', false)
      const limit = clampLimit(query.limit, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT })
      await meterRequest({ ctx, request, reply, cost: COST })
      await markChainsRead({ store: ctx.reads, reply, chainIds })

      // `decode` changes the items, not the rows: a cursor works with or without it.
      const scope = ['transactions', address, [...chainIds].sort((a, b) => a - b).join(',')].join(
        '|',
      )
      let after: Position | undefined
      if (query.offset !== undefined) {
        after = toPosition(ctx.cursors.decode(scope, query.offset))
        if (!after) warnings.push(INVALID_OFFSET)
      }
      const base = { wallet_address: address, ...(warnings.length > 0 ? { warnings } : {}) }
      if (chainIds.length === 0) return { ...base, transactions: [], ...answerTimes(reply) }

      const db = ctx.reads.db
      const { positions, transactions: found } = await readWalletTransactions({
        db,
        caps: ctx.reads.caps,
        address,
        chainIds,
        after,
        count: limit + 1,
      })
      const page = found.slice(0, limit)

      const transactions = page.map((tx) =>
        toTransactionItem({
          tx,
          logs: tx.logs,
          wallet: address,
          chain: chainName(ctx, Number(tx.chain_id)),
          registry: decode ? registry : undefined,
        }),
      )
      const last = positions[limit - 1]
      const next = positions.length > limit && last ? ctx.cursors.encode(scope, last) : undefined
      return {
        ...base,
        transactions,
        ...(next !== undefined ? { next_offset: next } : {}),
        ...answerTimes(reply),
      }
    },
  )
}

function toPosition(value: unknown): Position | undefined {
  if (!Array.isArray(value) || value.length !== 4) return undefined
  if (!value.every((v) => Number.isSafeInteger(v))) return undefined
  return value as Position
}
