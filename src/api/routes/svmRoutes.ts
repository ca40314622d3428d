import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { BaseError } from '../../internal/errors.ts'
import { StoreUnavailableError } from '../../store/parseDbError.ts'
import type { SvmBalanceRecord } from '../../svm/balances/toSvmBalanceRecord.ts'
import { parseSvmAddress } from '../../svm/parseSvmAddress.ts'
import { SVM_CHAIN_NAMES } from '../../svm/svmDefaults.ts'
import { readSvmTransactions } from '../../svm/transactions/readSvmTransactions.ts'
import { ApiError } from '../ApiError.ts'
import type { ApiContext } from '../apiContext.ts'
import { setBlockNumbers } from '../blockNumbersHeader.ts'
import type { RouteModule } from '../createApiServer.ts'
import { clampLimit, LimitQuery, OffsetQuery } from '../params.ts'
import { meterRequest } from '../registerAuth.ts'
import { type BalancePosition, compareBalances, positionOf } from './svmBalanceOrder.ts'

const BALANCES_LIMIT = { fallback: 1000, max: 1000 }
const TRANSACTIONS_LIMIT = { fallback: 100, max: 100 }
const TRANSACTIONS_COST = 1

// No maxLength: parseAddress refuses any length but 32–44 with the one documented message.
const SvmAddressParam = Type.String({ description: 'SVM address: base58 of 32 bytes' })

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Union([schema, Type.Null()])

const SvmBalanceSchema = Type.Object({
  chain: Type.String(),
  address: Type.String({ description: 'Mint address, or `native`' }),
  amount: Type.String({ description: 'Raw integer amount' }),
  balance: Type.String({ description: 'amount / 10^decimals' }),
  raw_balance: Type.String(),
  value_usd: Type.Optional(Type.Number()),
  program_id: Nullable(Type.String()),
  decimals: Type.Integer(),
  total_supply: Type.String(),
  metadata_address: Type.Optional(Type.String()),
  mint_authority: Type.Optional(Nullable(Type.String())),
  name: Type.Optional(Type.String()),
  symbol: Type.Optional(Type.String()),
  uri: Nullable(Type.String()),
  price_usd: Type.Optional(Type.Number()),
  liquidity_usd: Type.Optional(Type.Number()),
  pool_type: Nullable(Type.String()),
  pool_address: Nullable(Type.String()),
})

const SvmWarningSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  chains: Type.Optional(Type.Array(Type.String())),
  /** UNKNOWN_PARAMETERS (warnUnknownParameters): the names ignored. */
  parameters: Type.Optional(Type.Array(Type.String())),
})
type SvmWarning = { code: string; message: string; chains?: string[] }

/**
 * Solana and Eclipse (`/beta/svm/…`): balances read from the node per request (mint facts,
 * metadata and prices cached), and Solana transactions (finalized ones kept in the store).
 * Errors use the SVM body `{message}`; a node that does not answer gives 503.
 */
export const svmRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/beta/svm/balances/:address',
    {
      schema: {
        summary: 'Native, SPL Token and Token-2022 balances of an SVM wallet',
        params: Type.Object({ address: SvmAddressParam }),
        querystring: Type.Object({
          chains: Type.Optional(
            Type.String({
              maxLength: 200,
              description: 'Comma-separated: solana, eclipse, or all. Default solana.',
            }),
          ),
          offset: OffsetQuery,
          limit: LimitQuery,
        }),
        response: {
          200: Type.Object({
            processing_time_ms: Type.Integer(),
            wallet_address: Type.String(),
            next_offset: Type.Optional(Type.String()),
            balances_count: Type.Integer(),
            balances: Type.Array(SvmBalanceSchema),
            warnings: Type.Optional(Type.Array(SvmWarningSchema)),
          }),
        },
      },
    },
    async (request, reply) => {
      const started = performance.now()
      const wallet = parseAddress(request.params.address)
      const { chains, warnings } = parseChains(ctx, request.query.chains)
      const limit = clampLimit(request.query.limit, BALANCES_LIMIT)
      const scope = ['svm-balances', wallet, chains.join(',')].join('|')
      const after = decodePosition(ctx, scope, request.query.offset, warnings)
      // Cost: one per chain served, and one when none is (the request still asked for one).
      await meterRequest({ ctx, request, reply, cost: Math.max(1, chains.length) })

      const read = await fromNode(() =>
        Promise.all(
          chains.map(async (name) => {
            const chain = ctx.svm.get(name)!
            // The slot first: the balances are at least as new as the header says.
            const slot = await chain.rpc.getSlot()
            return { name, slot, balances: await chain.readBalances(wallet) }
          }),
        ),
      )
      setBlockNumbers(reply, new Map(read.map((r) => [r.name, r.slot])))
      const lists = read.map((r) => r.balances)
      const order = (record: SvmBalanceRecord) => positionOf(record, chainRank)
      const all = lists.flat().sort((a, b) => compareBalances(order(a), order(b)))
      const rest = after ? all.filter((r) => compareBalances(order(r), after) > 0) : all
      const page = rest.slice(0, limit)
      const last = page.at(-1)
      return {
        processing_time_ms: Math.round(performance.now() - started),
        wallet_address: wallet,
        ...(rest.length > limit && last
          ? { next_offset: ctx.cursors.encode(scope, order(last)) }
          : {}),
        balances_count: page.length,
        balances: page,
        ...(warnings.length > 0 ? { warnings } : {}),
      }
    },
  )

  app.get(
    '/beta/svm/transactions/:address',
    {
      schema: {
        summary: 'Transactions of a Solana address, newest first',
        params: Type.Object({ address: SvmAddressParam }),
        querystring: Type.Object({ offset: OffsetQuery, limit: LimitQuery }),
        response: {
          200: Type.Object({
            next_offset: Type.Optional(Type.String()),
            transactions: Type.Array(
              Type.Object({
                address: Type.String(),
                block_slot: Type.Integer(),
                block_time: Type.Union([Type.Integer(), Type.Null()], {
                  description: 'Microseconds since the Unix epoch',
                }),
                chain: Type.String(),
                raw_transaction: Type.Unknown({
                  description: "The node's getTransaction JSON (encoding json)",
                }),
              }),
            ),
          }),
        },
      },
    },
    async (request, reply) => {
      const address = parseAddress(request.params.address)
      const solana = ctx.svm.get('solana')
      if (!solana) throw new ApiError('NOT_FOUND', 'Solana is not enabled on this instance.')
      const limit = clampLimit(request.query.limit, TRANSACTIONS_LIMIT)
      const scope = ['svm-transactions', address].join('|')
      const position = request.query.offset
        ? ctx.cursors.decode(scope, request.query.offset)
        : undefined
      const before =
        typeof position === 'object' && position !== null && 'before' in position
          ? String((position as { before: unknown }).before)
          : undefined
      await meterRequest({ ctx, request, reply, cost: TRANSACTIONS_COST })
      const slot = await fromNode(() => solana.rpc.getSlot())
      setBlockNumbers(reply, new Map([['solana', slot]]))
      const page = await fromNode(() =>
        readSvmTransactions({
          chain: 'solana',
          rpc: solana.rpc,
          store: ctx.store,
          address,
          limit,
          before,
        }),
      )
      const last = page.items.at(-1)
      const nextOffset =
        page.more && last ? ctx.cursors.encode(scope, { before: last.signature }) : undefined
      // raw_transaction is the node's JSON text, spliced in as is (u64 values stay exact).
      const items = page.items.map(
        (item) =>
          `{"address":${JSON.stringify(address)},"block_slot":${item.slot},"block_time":${
            item.blockTime === null ? 'null' : item.blockTime * 1_000_000
          },"chain":"solana","raw_transaction":${item.raw}}`,
      )
      const body = `{${nextOffset ? `"next_offset":${JSON.stringify(nextOffset)},` : ''}"transactions":[${items.join(',')}]}`
      return sendJsonText(reply, body)
    },
  )
}

const chainRank = (chain: string) => (SVM_CHAIN_NAMES as readonly string[]).indexOf(chain)

function sendJsonText(reply: FastifyReply, body: string) {
  // A Buffer skips the response serializer: the body is already JSON.
  return reply.type('application/json; charset=utf-8').send(Buffer.from(body))
}

function parseAddress(text: string): string {
  const address = parseSvmAddress(text)
  if (!address) {
    throw new ApiError(
      'BAD_REQUEST',
      `Failed to parse address "${text.slice(0, 60)}": expected a base58 Solana address of 32 bytes.`,
    )
  }
  return address
}

/**
 * `chains`: `solana`, `eclipse`, `all` (comma-separated, any case; duplicates and empty entries
 * collapse); default (also for an empty value) `solana`. A chain this instance has no node for
 * is left out with an `UNSUPPORTED_CHAINS` warning (not when only `all` was asked: it means
 * the enabled ones); anything else → 400.
 */
function parseChains(
  ctx: ApiContext,
  input: string | undefined,
): { chains: string[]; warnings: SvmWarning[] } {
  const words =
    input === undefined
      ? ['solana']
      : input
          .split(',')
          .map((w) => w.trim().toLowerCase())
          .filter((w) => w !== '')
  const requested = new Set<string>()
  for (const word of words) {
    if (word === 'all') for (const name of SVM_CHAIN_NAMES) requested.add(name)
    else if ((SVM_CHAIN_NAMES as readonly string[]).includes(word)) requested.add(word)
    else
      throw new ApiError(
        'BAD_REQUEST',
        `Invalid chains: "${word.slice(0, 40)}" is not one of solana, eclipse, all.`,
      )
  }
  if (requested.size === 0) requested.add('solana')
  const ordered = SVM_CHAIN_NAMES.filter((name) => requested.has(name))
  const chains = ordered.filter((name) => ctx.svm.has(name))
  const unsupported = ordered.filter((name) => !ctx.svm.has(name))
  const warnings: SvmWarning[] =
    unsupported.length > 0 && !(words.length > 0 && words.every((w) => w === 'all'))
      ? [
          {
            code: 'UNSUPPORTED_CHAINS',
            message: `Not enabled on this instance: ${unsupported.join(', ')}.`,
            chains: unsupported,
          },
        ]
      : []
  return { chains, warnings }
}

function decodePosition(
  ctx: ApiContext,
  scope: string,
  offset: string | undefined,
  warnings: SvmWarning[],
): BalancePosition | undefined {
  if (offset === undefined) return undefined
  const position = ctx.cursors.decode(scope, offset)
  if (isPosition(position)) return position
  warnings.push({
    code: 'INVALID_OFFSET',
    message: 'The offset was not issued for this query; the first page is served.',
  })
  return undefined
}

function isPosition(value: unknown): value is BalancePosition {
  if (typeof value !== 'object' || value === null) return false
  const p = value as Record<string, unknown>
  return (
    (p.v === null || typeof p.v === 'number') && typeof p.c === 'number' && typeof p.a === 'string'
  )
}

/** Node trouble (every endpoint failed) is a 503 "Try again later"; store trouble stays as is. */
async function fromNode<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof ApiError || error instanceof StoreUnavailableError) throw error
    if (error instanceof BaseError && /^Rpc/.test(error.name)) {
      throw new ApiError('UNAVAILABLE', 'Try again later', {
        headers: { 'Retry-After': '5' },
        cause: error,
      })
    }
    throw error
  }
}
