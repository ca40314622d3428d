import { Type } from 'typebox'
import { formatTime } from '../../utils/formatTime.ts'
import {
  createSubscriptions,
  type DeliveryRow,
  type Subscriptions,
} from '../../webhooks/createSubscriptions.ts'
import { toSubscriptionJson } from '../../webhooks/subscription.ts'
import { ApiError } from '../ApiError.ts'
import type { RouteModule } from '../createApiServer.ts'
import { clampLimit, LimitQuery, OffsetQuery } from '../params.ts'
import { meterRequest } from '../registerAuth.ts'
import {
  AddressList,
  accountOf,
  asBadRequest,
  ChainIdList,
  FilterFields,
  pageSubscriptions,
  SubscriptionId,
} from './subscriptionInputs.ts'

const DEFAULT_LIMIT = 100
const MAX_LIMIT = 100
const STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const

const CreateBody = Type.Object(
  {
    webhook_url: Type.String({ maxLength: 2000 }),
    type: Type.String({ maxLength: 20, description: 'balances, activities or transactions' }),
    chain_ids: ChainIdList,
    addresses: AddressList,
    name: Type.Optional(Type.String({ maxLength: 200 })),
    ...FilterFields,
  },
  { additionalProperties: false },
)
const UpdateBody = Type.Object(
  {
    webhook_url: Type.Optional(Type.String({ maxLength: 2000 })),
    name: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 200 })])),
    active: Type.Optional(Type.Boolean()),
    chain_ids: Type.Optional(ChainIdList),
    addresses: Type.Optional(AddressList),
    add_addresses: Type.Optional(AddressList),
    remove_addresses: Type.Optional(AddressList),
    type: Type.Optional(Type.Unknown()),
    ...FilterFields,
  },
  { additionalProperties: false },
)
const SubscriptionSchema = Type.Object({
  id: Type.String(),
  name: Type.Optional(Type.String()),
  type: Type.String(),
  webhook_url: Type.String(),
  active: Type.Boolean(),
  chain_ids: Type.Array(Type.Integer()),
  addresses: Type.Array(Type.String()),
  activity_type: Type.Optional(Type.Array(Type.String())),
  asset_type: Type.Optional(Type.Array(Type.String())),
  token_address: Type.Optional(Type.String()),
  transaction_type: Type.Optional(Type.String()),
  counterparty: Type.Optional(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
  secret: Type.Optional(
    Type.String({ description: 'Signing secret: only at creation and rotation' }),
  ),
})
const DeliverySchema = Type.Object({
  id: Type.String(),
  chain_id: Type.Integer(),
  block_number: Type.Integer(),
  type: Type.String(),
  status: Type.String(),
  removed: Type.Boolean(),
  reverted: Type.Boolean({
    description:
      'A reorg removed its block: its events were sent again as removals (if it went out), and it cannot be redelivered',
  }),
  event_count: Type.Integer(),
  attempts: Type.Integer(),
  last_status: Type.Optional(Type.Integer()),
  last_error: Type.Optional(Type.String()),
  created_at: Type.String(),
  last_attempt_at: Type.Optional(Type.String()),
  next_attempt_at: Type.Optional(Type.String()),
  delivered_at: Type.Optional(Type.String()),
})
const IdParams = Type.Object({ id: SubscriptionId })

/**
 * rotate-secret and redeliver take no input but their path: a body with fields (a secret of
 * one's own, a different target) is refused rather than silently ignored. No body, `{}` and
 * an empty body sent with `Content-Type: application/json` pass.
 */
function refuseBodyFields(body: unknown, verb: string): void {
  if (body === undefined || body === null) return
  if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return
  throw new ApiError('BAD_REQUEST', `Invalid body: ${verb} takes no body (send none, or {}).`)
}

/**
 * Webhook subscriptions (spec/decisions.md "Subscriptions and webhooks"): CRUD under
 * /v1/evm/subscriptions, plus secret rotation and the delivery log with redelivery of failed
 * deliveries. Scoped to the caller's account (another account's id is 404); 0 CU.
 */
export const subscriptionsRoutes: RouteModule = async (app, ctx) => {
  const subscriptions: Subscriptions = createSubscriptions({
    store: ctx.store,
    policy: ctx.webhookUrls,
    enabledChains: new Set(ctx.chains.map((c) => c.chainId)),
  })
  const notFound = (id: string) =>
    new ApiError('NOT_FOUND', `No subscription ${JSON.stringify(id.slice(0, 100))}.`)

  app.post(
    '/v1/evm/subscriptions',
    {
      schema: {
        summary: 'Create a webhook subscription; the response carries its signing secret',
        body: CreateBody,
        response: { 201: SubscriptionSchema },
      },
    },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const accountId = accountOf(request)
      const sub = await asBadRequest(() =>
        subscriptions.create({ accountId, input: request.body as never }),
      )
      reply.status(201)
      return toSubscriptionJson(sub, { withSecret: true })
    },
  )

  app.get(
    '/v1/evm/subscriptions',
    {
      schema: {
        summary: "The account's webhook subscriptions, oldest first",
        querystring: Type.Object({ offset: OffsetQuery, limit: LimitQuery }),
        response: {
          200: Type.Object({
            subscriptions: Type.Array(SubscriptionSchema),
            next_offset: Type.Optional(Type.String()),
          }),
        },
      },
    },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const accountId = accountOf(request)
      const { page, nextOffset } = await pageSubscriptions({
        cursors: ctx.cursors,
        subscriptions,
        accountId,
        scope: 'subscriptions',
        offset: request.query.offset,
        limit: clampLimit(request.query.limit, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT }),
      })
      return {
        subscriptions: page.map((s) => toSubscriptionJson(s)),
        ...(nextOffset ? { next_offset: nextOffset } : {}),
      }
    },
  )

  app.get(
    '/v1/evm/subscriptions/:id',
    {
      schema: {
        summary: 'One webhook subscription',
        params: IdParams,
        response: { 200: SubscriptionSchema },
      },
    },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const sub = await subscriptions.get({ accountId: accountOf(request), id: request.params.id })
      if (!sub) throw notFound(request.params.id)
      return toSubscriptionJson(sub)
    },
  )

  app.patch(
    '/v1/evm/subscriptions/:id',
    {
      schema: {
        summary: 'Change a webhook subscription (not its type)',
        params: IdParams,
        body: UpdateBody,
        response: { 200: SubscriptionSchema },
      },
    },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const accountId = accountOf(request)
      const sub = await asBadRequest(() =>
        subscriptions.update({ accountId, id: request.params.id, input: request.body as never }),
      )
      if (!sub) throw notFound(request.params.id)
      return toSubscriptionJson(sub)
    },
  )

  app.delete(
    '/v1/evm/subscriptions/:id',
    {
      schema: {
        summary: 'Delete a webhook subscription and its queued deliveries',
        params: IdParams,
      },
    },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const removed = await subscriptions.remove({
        accountId: accountOf(request),
        id: request.params.id,
      })
      if (!removed) throw notFound(request.params.id)
      reply.status(204).send()
    },
  )

  app.post(
    '/v1/evm/subscriptions/:id/rotate-secret',
    {
      schema: {
        summary: 'Replace the signing secret; the response carries the new one',
        params: IdParams,
        response: { 200: SubscriptionSchema },
      },
    },
    async (request, reply) => {
      refuseBodyFields(request.body, 'rotate-secret')
      await meterRequest({ ctx, request, reply, cost: 0 })
      const sub = await subscriptions.rotateSecret({
        accountId: accountOf(request),
        id: request.params.id,
      })
      if (!sub) throw notFound(request.params.id)
      return toSubscriptionJson(sub, { withSecret: true })
    },
  )

  app.get(
    '/v1/evm/subscriptions/:id/deliveries',
    {
      schema: {
        summary: "A subscription's deliveries, newest first (status=failed for the failed ones)",
        params: IdParams,
        querystring: Type.Object({
          status: Type.Optional(Type.Union(STATUSES.map((s) => Type.Literal(s)))),
          offset: OffsetQuery,
          limit: LimitQuery,
        }),
        response: {
          200: Type.Object({
            deliveries: Type.Array(DeliverySchema),
            next_offset: Type.Optional(Type.String()),
          }),
        },
      },
    },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const { id } = request.params
      const { status } = request.query
      const limit = clampLimit(request.query.limit, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT })
      const scope = `deliveries|${id}|${status ?? ''}`
      const before =
        request.query.offset === undefined
          ? undefined
          : ctx.cursors.decode(scope, request.query.offset)
      const rows = await subscriptions.deliveries({
        accountId: accountOf(request),
        id,
        ...(status ? { status } : {}),
        ...(Number.isSafeInteger(before) ? { beforeSeq: before as number } : {}),
        limit: limit + 1,
      })
      if (!rows) throw notFound(id)
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        deliveries: page.map(toDeliveryJson),
        ...(rows.length > limit && last
          ? { next_offset: ctx.cursors.encode(scope, Number(last.seq)) }
          : {}),
      }
    },
  )

  app.post(
    '/v1/evm/subscriptions/:id/deliveries/:delivery_id/redeliver',
    {
      schema: {
        summary: 'Queue a failed delivery again (same id, retry index from 0)',
        params: Type.Object({ id: SubscriptionId, delivery_id: SubscriptionId }),
        response: { 202: DeliverySchema },
      },
    },
    async (request, reply) => {
      refuseBodyFields(request.body, 'redeliver')
      await meterRequest({ ctx, request, reply, cost: 0 })
      const result = await subscriptions.redeliver({
        accountId: accountOf(request),
        id: request.params.id,
        deliveryId: request.params.delivery_id,
      })
      if (result === 'not_found') {
        throw new ApiError(
          'NOT_FOUND',
          `No delivery ${JSON.stringify(request.params.delivery_id.slice(0, 100))} of this subscription.`,
        )
      }
      if (result === 'not_failed') {
        throw new ApiError('BAD_REQUEST', 'Only failed deliveries can be redelivered.')
      }
      if (result === 'reverted') {
        throw new ApiError(
          'BAD_REQUEST',
          'This delivery is of a block a reorg removed; its events no longer exist.',
        )
      }
      reply.status(202)
      return toDeliveryJson(result)
    },
  )
}

function toDeliveryJson(row: DeliveryRow) {
  const time = (ms: number | null) =>
    ms === null ? undefined : formatTime(Math.floor(Number(ms) / 1000))
  const out: Record<string, unknown> = {
    id: row.id,
    chain_id: Number(row.chain_id),
    block_number: Number(row.block_number),
    type: row.type,
    status: row.status,
    removed: Number(row.removed) === 1,
    reverted: Number(row.reverted) === 1,
    event_count: Number(row.event_count),
    attempts: Number(row.attempts),
    created_at: time(row.created_at),
  }
  if (row.last_status !== null) out.last_status = Number(row.last_status)
  if (row.last_error !== null) out.last_error = row.last_error
  if (row.last_attempt_at !== null) out.last_attempt_at = time(row.last_attempt_at)
  if (row.status === 'pending') out.next_attempt_at = time(row.next_attempt_at)
  if (row.delivered_at !== null) out.delivered_at = time(row.delivered_at)
  return out as never
}
