import { Type } from 'typebox'
import { createSubscriptions, type UpdateInput } from '../../webhooks/createSubscriptions.ts'
import { toWebhookJson } from '../../webhooks/toWebhookJson.ts'
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

const BASE = '/beta/evm/subscriptions/webhooks'
const WEBHOOKS_LIMIT = { fallback: 100, max: 100 }
const ADDRESSES_LIMIT = { fallback: 100, max: 1000 }
const LOWER_ADDRESS = /^0x[0-9a-f]{40}$/

const Name = Type.String({ maxLength: 200 })
const Url = Type.String({ maxLength: 2000 })
const WebhookType = Type.String({
  maxLength: 20,
  description: 'balances, activities or transactions',
})
/** Errors name the published body's fields. */
const PUBLISHED_NAMES = { webhook_url: 'url' }
// Null first in unions: Fastify's ajv coerces types, and would turn null into "" or [].
const CreateWebhook = Type.Object(
  {
    name: Name,
    url: Url,
    type: WebhookType,
    addresses: AddressList,
    chain_ids: Type.Optional(
      Type.Union([Type.Null(), ChainIdList], {
        description: 'Omitted or null: every chain this instance indexes (at creation)',
      }),
    ),
    ...FilterFields,
  },
  { additionalProperties: false },
)
const UpdateWebhook = Type.Object(
  {
    name: Type.Optional(Type.Union([Type.Null(), Name], { description: 'null: unchanged' })),
    url: Type.Optional(Type.Union([Type.Null(), Url], { description: 'null: unchanged' })),
    // One schema with both types: as a union, coercion would turn false into null (or null
    // into false, the other way round).
    active: Type.Optional(Type.Unsafe<boolean | null>({ type: 'boolean', nullable: true })),
    chain_ids: Type.Optional(
      Type.Union([Type.Null(), ChainIdList], {
        description: 'null: every chain this instance indexes',
      }),
    ),
    ...FilterFields,
  },
  { additionalProperties: false },
)
const Optional = (description?: string) =>
  Type.Optional(Type.String(description ? { description } : {}))
const Webhook = Type.Object({
  id: Type.String({
    description: 'A UUID (subscriptions made by earlier versions keep their sub_… id)',
  }),
  team_id: Type.String({ description: 'The owning account' }),
  name: Optional(),
  type: Type.String(),
  url: Type.String(),
  active: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Type.String(),
  chain_ids: Type.Array(Type.Integer()),
  transaction_type: Optional(),
  counterparty: Optional(),
  activity_type: Optional('Several (set through /v1/evm/subscriptions): comma-separated'),
  asset_type: Optional('Several (set through /v1/evm/subscriptions): comma-separated'),
  token_address: Optional(),
  secret: Optional('Signing secret: only in the answer that creates the webhook'),
})
const IdParams = Type.Object({ webhookId: SubscriptionId })

/**
 * The hosted API's published webhook management paths, with its request and response bodies,
 * over the same subscriptions as /v1/evm/subscriptions (docs/webhooks.md, docs/migrating.md):
 * a webhook made here is a subscription there and the other way round, with the same
 * deliveries. 0 CU, scoped to the key's account.
 */
export const webhooksRoutes: RouteModule = (app, ctx) => {
  const enabledChains = new Set(ctx.chains.map((c) => c.chainId))
  const subscriptions = createSubscriptions({
    store: ctx.store,
    policy: ctx.webhookUrls,
    enabledChains,
  })
  const allChains = () => [...enabledChains]
  const notFound = (id: string) =>
    new ApiError('NOT_FOUND', `No webhook ${JSON.stringify(id.slice(0, 100))}.`)
  const update = async (accountId: string, id: string, input: UpdateInput) => {
    const sub = await asBadRequest(
      () => subscriptions.update({ accountId, id, input }),
      PUBLISHED_NAMES,
    )
    if (!sub) throw notFound(id)
    return sub
  }

  app.post(
    BASE,
    {
      schema: {
        summary: 'Create a webhook (the published shape of POST /v1/evm/subscriptions)',
        body: CreateWebhook,
        response: { 201: Webhook },
      },
    },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const { url, chain_ids, ...rest } = request.body
      const sub = await asBadRequest(
        () =>
          subscriptions.create({
            accountId: accountOf(request),
            input: { ...rest, webhook_url: url, chain_ids: chain_ids ?? allChains() },
          }),
        PUBLISHED_NAMES,
      )
      reply.status(201)
      return toWebhookJson(sub, { withSecret: true })
    },
  )

  app.get(
    BASE,
    {
      schema: {
        summary: "The account's webhooks, oldest first",
        querystring: Type.Object({ offset: OffsetQuery, limit: LimitQuery }),
        response: {
          200: Type.Object({
            webhooks: Type.Array(Webhook),
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
        scope: 'webhooks',
        offset: request.query.offset,
        limit: clampLimit(request.query.limit, WEBHOOKS_LIMIT),
      })
      return {
        webhooks: page.map((sub) => toWebhookJson(sub)),
        ...(nextOffset ? { next_offset: nextOffset } : {}),
      }
    },
  )

  app.get(
    `${BASE}/:webhookId`,
    { schema: { summary: 'One webhook', params: IdParams, response: { 200: Webhook } } },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const { webhookId } = request.params
      const sub = await subscriptions.get({ accountId: accountOf(request), id: webhookId })
      if (!sub) throw notFound(webhookId)
      return toWebhookJson(sub)
    },
  )

  app.patch(
    `${BASE}/:webhookId`,
    {
      schema: {
        summary: 'Change a webhook (not its type; addresses through /addresses)',
        params: IdParams,
        body: UpdateWebhook,
        response: { 200: Webhook },
      },
    },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const { name, url, active, chain_ids, ...filters } = request.body
      const sub = await update(accountOf(request), request.params.webhookId, {
        ...filters,
        ...(name != null ? { name } : {}),
        ...(url != null ? { webhook_url: url } : {}),
        ...(active != null ? { active } : {}),
        ...(chain_ids !== undefined ? { chain_ids: chain_ids ?? allChains() } : {}),
      })
      return toWebhookJson(sub)
    },
  )

  app.delete(
    `${BASE}/:webhookId`,
    { schema: { summary: 'Delete a webhook and its queued deliveries', params: IdParams } },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const { webhookId } = request.params
      const removed = await subscriptions.remove({ accountId: accountOf(request), id: webhookId })
      if (!removed) throw notFound(webhookId)
      reply.status(204).send()
    },
  )

  app.get(
    `${BASE}/:webhookId/addresses`,
    {
      schema: {
        summary: "A webhook's addresses, ascending",
        params: IdParams,
        querystring: Type.Object({ offset: OffsetQuery, limit: LimitQuery }),
        response: {
          200: Type.Object({
            addresses: Type.Array(Type.String()),
            next_offset: Type.Optional(Type.String()),
          }),
        },
      },
    },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const { webhookId } = request.params
      const sub = await subscriptions.get({ accountId: accountOf(request), id: webhookId })
      if (!sub) throw notFound(webhookId)
      const limit = clampLimit(request.query.limit, ADDRESSES_LIMIT)
      const scope = `webhook-addresses|${sub.id}`
      const after =
        request.query.offset === undefined
          ? undefined
          : ctx.cursors.decode(scope, request.query.offset)
      const sorted = [...sub.addresses].sort()
      const rest =
        typeof after === 'string' && LOWER_ADDRESS.test(after)
          ? sorted.filter((a) => a > after)
          : sorted
      const page = rest.slice(0, limit)
      const last = page.at(-1)
      return {
        addresses: page,
        ...(rest.length > limit && last ? { next_offset: ctx.cursors.encode(scope, last) } : {}),
      }
    },
  )

  app.put(
    `${BASE}/:webhookId/addresses`,
    {
      schema: {
        summary: "Replace a webhook's addresses",
        params: IdParams,
        body: Type.Object({ addresses: AddressList }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const { addresses } = request.body
      await update(accountOf(request), request.params.webhookId, { addresses })
      reply.status(204).send()
    },
  )

  app.patch(
    `${BASE}/:webhookId/addresses`,
    {
      schema: {
        summary: 'Add and remove addresses of a webhook (removals first, then additions)',
        params: IdParams,
        body: Type.Object(
          {
            add_addresses: Type.Optional(AddressList),
            remove_addresses: Type.Optional(AddressList),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      await meterRequest({ ctx, request, reply, cost: 0 })
      const add = [request.body.add_addresses ?? []].flat()
      const added = new Set(add.map((a) => a.toLowerCase()))
      // `update` adds, then removes: an address both added and removed must stay.
      const remove = [request.body.remove_addresses ?? []]
        .flat()
        .filter((a) => !added.has(a.toLowerCase()))
      await update(accountOf(request), request.params.webhookId, {
        add_addresses: add,
        remove_addresses: remove,
      })
      reply.status(204).send()
    },
  )
}
