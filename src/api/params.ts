import { Type } from 'typebox'
import type { ChainEndpoint } from '../chains/catalogue.ts'
import { expandChainIds, InvalidChainIdsError } from '../chains/expandChainIds.ts'
import { ApiError } from './ApiError.ts'
import type { ApiContext } from './apiContext.ts'

/** Shared request schemas and parsers (spec/decisions.md "Common rules"). */

export const ADDRESS_PATTERN = '^0x[a-fA-F0-9]{40}$'

export const AddressParam = Type.String({
  pattern: ADDRESS_PATTERN,
  description: 'EVM address, 0x followed by 40 hex digits (any case)',
})

export const ChainIdsQuery = Type.Optional(
  Type.String({
    maxLength: 2000,
    description: 'Comma-separated chain ids and tags (default, mainnet, testnet, devnet, omni)',
  }),
)

export const LimitQuery = Type.Optional(
  Type.Integer({ minimum: 1, description: 'Page size; above the maximum it is reduced to it' }),
)

export const OffsetQuery = Type.Optional(
  Type.String({ maxLength: 4096, description: 'The previous response’s next_offset' }),
)

/** A boolean query flag: `true`, `false`, or present without a value (= true). */
export const FlagQuery = Type.Optional(
  Type.String({ description: 'true, false, or the bare flag (= true)', maxLength: 5 }),
)

export const WarningSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  chain_ids: Type.Optional(Type.Array(Type.Integer())),
  /** `UNKNOWN_PARAMETERS`: the query parameters that were ignored. */
  parameters: Type.Optional(Type.Array(Type.String())),
})
export type Warning = { code: string; message: string; chain_ids?: number[]; parameters?: string[] }

export function parseFlag(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined) return fallback
  if (value === '' || value === 'true') return true
  if (value === 'false') return false
  throw new ApiError('BAD_REQUEST', `Invalid ${name}: expected true or false.`)
}

export function clampLimit(
  limit: number | undefined,
  { fallback, max }: { fallback: number; max: number },
): number {
  return Math.min(limit ?? fallback, max)
}

/** Lowercases a validated address. */
export function lower(address: string): `0x${string}` {
  return address.toLowerCase() as `0x${string}`
}

/**
 * Expands `chain_ids` for an endpoint; unsupported numeric ids become the
 * `UNSUPPORTED_CHAIN_IDS` warning, names and unknown words a 400.
 */
export function parseChainIds({
  ctx,
  input,
  endpoint,
}: {
  ctx: ApiContext
  input: string | undefined
  endpoint: ChainEndpoint
}): { chainIds: number[]; warnings: Warning[] } {
  try {
    const { chainIds, unsupported } = expandChainIds({
      input,
      catalogue: ctx.catalogue,
      enabled: new Set(ctx.chains.map((c) => c.chainId)),
      endpoint,
    })
    const warnings: Warning[] =
      unsupported.length > 0
        ? [
            {
              code: 'UNSUPPORTED_CHAIN_IDS',
              message: `These chain ids are not supported here for this endpoint: ${unsupported.join(', ')}.`,
              chain_ids: unsupported,
            },
          ]
        : []
    return { chainIds, warnings }
  } catch (error) {
    if (error instanceof InvalidChainIdsError) throw new ApiError('BAD_REQUEST', error.shortMessage)
    throw error
  }
}

/** Chain API name by id. */
export function chainName(ctx: ApiContext, chainId: number): string {
  return ctx.catalogue.find((c) => c.chainId === chainId)?.name ?? `chain_${chainId}`
}

/** The `INVALID_OFFSET` warning for a cursor this server did not issue for the query. */
export const INVALID_OFFSET: Warning = {
  code: 'INVALID_OFFSET',
  message: 'The offset was not issued for this query; the first page is returned.',
}

/** `request_time` and `response_time` of the answers whose published schema has them. */
export const AnswerTimesSchema = {
  request_time: Type.String({ description: 'When the request arrived (RFC 3339, ms)' }),
  response_time: Type.String({ description: 'When the answer was made (RFC 3339, ms)' }),
}

/** The request's arrival and now, for an answer being made (`AnswerTimesSchema`). */
export function answerTimes(reply: { elapsedTime: number }): {
  request_time: string
  response_time: string
} {
  const now = Date.now()
  const iso = (ms: number) => new Date(ms).toISOString().replace(/Z$/, '+00:00')
  return { request_time: iso(now - reply.elapsedTime), response_time: iso(now) }
}

const MAX_HISTORICAL_PRICES = 3
const HOURS = /^[0-9]{1,7}$/
const NUMERIC = /^[0-9]+$/

/** 1 to 3 comma-separated whole numbers of hours, each ≥ 1; `undefined` when not asked for. */
export function parseHistoricalPrices(input: string | undefined): number[] | undefined {
  if (input === undefined) return undefined
  const parts = input.split(',').map((p) => p.trim())
  // At least 1: the published schema's `offset_hours` has minimum 1 (0 would be "now").
  if (parts.length > MAX_HISTORICAL_PRICES || parts.some((p) => !HOURS.test(p) || Number(p) < 1)) {
    throw new ApiError(
      'BAD_REQUEST',
      `Invalid historical_prices: expected 1 to ${MAX_HISTORICAL_PRICES} comma-separated whole numbers of hours (1 or more).`,
    )
  }
  return parts.map(Number)
}

/** Exactly one numeric chain id: missing, a list, a tag or a name → 400. */
export function parseSingleChainId(input: string | undefined): number {
  const value = input?.trim() ?? ''
  const chainId = Number(value)
  if (!NUMERIC.test(value) || !Number.isSafeInteger(chainId)) {
    throw new ApiError(
      'BAD_REQUEST',
      'Invalid chain_ids: this endpoint takes exactly one numeric chain id (no list, tag or chain name).',
    )
  }
  return chainId
}
