import type { StablecoinRegistry } from '../../chains/stablecoins.ts'
import { ApiError } from '../ApiError.ts'
import type { ApiContext } from '../apiContext.ts'
import { INVALID_OFFSET, type Warning } from '../params.ts'
import type { BalancePosition } from './priceBalanceRows.ts'

/** Request parsing shared by the balances endpoints (spec/decisions.md "Balances"). */

export const METADATA_VALUES = ['logo', 'url', 'pools'] as const
export type MetadataValue = (typeof METADATA_VALUES)[number]

const TOKEN_ADDRESS = /^0x[0-9a-f]{40}$/

/** `filter_type`, or its alias `filters`; both given and different → 400. */
export function parseFilterType({
  filterType,
  filters,
}: {
  filterType: 'erc20' | 'native' | undefined
  filters: 'erc20' | 'native' | undefined
}): 'erc20' | 'native' | undefined {
  if (filterType !== undefined && filters !== undefined && filterType !== filters) {
    throw new ApiError(
      'BAD_REQUEST',
      'Invalid filter_type: filter_type and its alias filters disagree; give one of them.',
    )
  }
  return filterType ?? filters
}

/** Comma-separated `logo`, `url`, `pools`; anything else → 400. */
export function parseMetadata(input: string | undefined): MetadataValue[] {
  if (input === undefined) return []
  const values = input
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '')
  const known = new Set<string>(METADATA_VALUES)
  const unknown = values.find((v) => !known.has(v))
  if (unknown !== undefined) {
    throw new ApiError(
      'BAD_REQUEST',
      `Invalid metadata: "${unknown.slice(0, 40)}" is not one of ${METADATA_VALUES.join(', ')}.`,
    )
  }
  return [...new Set(values as MetadataValue[])]
}

/** 1 to 3 comma-separated whole numbers of hours in the past; `undefined` when absent. */

/**
 * The keyset position of `offset` for this query, or the first page plus `INVALID_OFFSET`
 * when the cursor was not issued for it.
 */
export function decodeOffset({
  ctx,
  scope,
  offset,
}: {
  ctx: ApiContext
  scope: string
  offset: string | undefined
}): { after: BalancePosition | undefined; warnings: Warning[] } {
  if (offset === undefined) return { after: undefined, warnings: [] }
  const position = ctx.cursors.decode(scope, offset) as
    | { v?: unknown; c?: unknown; a?: unknown }
    | undefined
  const valueUsd = position?.v
  const chainId = position?.c
  const address = position?.a
  if (
    (valueUsd === null || (typeof valueUsd === 'number' && Number.isFinite(valueUsd))) &&
    typeof chainId === 'number' &&
    Number.isSafeInteger(chainId) &&
    typeof address === 'string' &&
    (address === 'native' || TOKEN_ADDRESS.test(address))
  ) {
    return {
      after: { valueUsd, chainId, address: address as BalancePosition['address'] },
      warnings: [],
    }
  }
  return { after: undefined, warnings: [INVALID_OFFSET] }
}

export function encodeOffset({
  ctx,
  scope,
  position,
}: {
  ctx: ApiContext
  scope: string
  position: BalancePosition
}): string {
  return ctx.cursors.encode(scope, {
    v: position.valueUsd,
    c: position.chainId,
    a: position.address,
  })
}

export function stablecoinsOf(ctx: ApiContext): StablecoinRegistry {
  return ctx.stablecoins
}
