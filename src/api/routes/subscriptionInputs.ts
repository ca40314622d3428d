import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { Subscriptions } from '../../webhooks/createSubscriptions.ts'
import { InvalidSubscriptionError } from '../../webhooks/parseSubscriptionInput.ts'
import type { Subscription } from '../../webhooks/subscription.ts'
import { ApiError } from '../ApiError.ts'
import type { Cursors } from '../createCursors.ts'

/** Request pieces shared by /v1/evm/subscriptions and the published webhook paths. */

export const SubscriptionId = Type.String({ minLength: 1, maxLength: 100 })
/** JSON arrays; a single value may stand alone (`"chain_ids": 1`), as the body is not coerced. */
const Address = Type.String({ maxLength: 100 })
export const AddressList = Type.Union([Type.Array(Address, { maxItems: 1000 }), Address])
const ChainId = Type.Integer({ minimum: 1 })
export const ChainIdList = Type.Union([Type.Array(ChainId, { maxItems: 100 }), ChainId])
const List = Type.Union([
  Type.String({ maxLength: 200 }),
  Type.Array(Type.String({ maxLength: 50 }), { maxItems: 20 }),
])
/** Filters; `null` clears one (updates). Lists as arrays or comma-separated text. */
export const FilterFields = {
  activity_type: Type.Optional(Type.Union([Type.Null(), List])),
  asset_type: Type.Optional(Type.Union([Type.Null(), List])),
  token_address: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 100 })])),
  transaction_type: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 20 })])),
  counterparty: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 100 })])),
}

/** The caller's account: subscriptions belong to it (another account's id is 404). */
export function accountOf(request: FastifyRequest): string {
  if (!request.apiKey) throw new ApiError('UNAUTHORIZED', 'missing API key')
  return request.apiKey.accountId
}

/**
 * A subscription the rules refuse is the documented 400. `fieldNames` renames fields in the
 * message where the caller's body calls them otherwise (the published paths send `url`).
 */
export async function asBadRequest<T>(
  work: () => Promise<T>,
  fieldNames: Readonly<Record<string, string>> = {},
): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof InvalidSubscriptionError) {
      let message = error.shortMessage
      for (const [ours, theirs] of Object.entries(fieldNames))
        message = message.replaceAll(new RegExp(`\\b${ours}\\b`, 'g'), theirs)
      throw new ApiError('BAD_REQUEST', `Invalid body: ${message}`)
    }
    throw error
  }
}

/**
 * One page of the account's subscriptions, oldest first, behind an opaque cursor of `scope`
 * (each listing path has its own, so one path's cursor is refused by the other).
 */
export async function pageSubscriptions({
  cursors,
  subscriptions,
  accountId,
  scope,
  offset,
  limit,
}: {
  cursors: Cursors
  subscriptions: Pick<Subscriptions, 'list'>
  accountId: string
  scope: string
  offset: string | undefined
  limit: number
}): Promise<{ page: Subscription[]; nextOffset?: string }> {
  const after = offset === undefined ? undefined : cursors.decode(`${scope}|${accountId}`, offset)
  const rows = await subscriptions.list({
    accountId,
    ...(typeof after === 'string' ? { afterId: after } : {}),
    limit: limit + 1,
  })
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return rows.length > limit && last
    ? { page, nextOffset: cursors.encode(`${scope}|${accountId}`, last.id) }
    : { page }
}
