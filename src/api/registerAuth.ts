import type { FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from './ApiError.ts'
import type { ApiContext } from './apiContext.ts'
import type { ApiServer } from './createApiServer.ts'

const PRIMARY_HEADER = 'x-scry-api-key'

/**
 * API keys and rate limits (onRequest), and charging compute units for 2xx answers
 * (onResponse). Routes declare their cost with `meterRequest` once they know it. A key with a
 * response profile sets the request's (`registerProfiles`), whichever header carried it.
 */
export function registerAuth({ app, ctx }: { app: ApiServer; ctx: ApiContext }): void {
  const headers = [PRIMARY_HEADER, ...ctx.keyHeaders.map((h) => h.toLowerCase())]

  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return // 404/405 answer before authentication
    let presented: string | undefined
    for (const name of headers) {
      const value = request.headers[name]
      if (typeof value === 'string' && value !== '') {
        presented = value
        break
      }
    }
    if (presented === undefined) {
      if (request.routeOptions.config.public) return
      throw new ApiError('UNAUTHORIZED', 'missing API key')
    }
    const key = presented.length > 200 ? undefined : await ctx.accounts.resolve(presented)
    if (!key) throw new ApiError('UNAUTHORIZED', 'invalid API key')
    request.apiKey = key
    if (key.profile !== null) request.profile = key.profile
    if (key.rps !== null) {
      const rate = await ctx.rateLimiter.take({ keyId: key.keyId, rps: key.rps })
      reply.headers({
        'X-RateLimit-Limit': String(rate.limit),
        'X-RateLimit-Remaining': String(rate.remaining),
        'X-RateLimit-Reset': String(rate.resetSeconds),
      })
      if (!rate.allowed) {
        throw new ApiError(
          'RATE_LIMITED',
          `Too many requests. This key allows ${rate.limit} per second; retry after ${rate.resetSeconds} s, or ask the operator to raise its limit.`,
          { headers: { 'Retry-After': String(rate.resetSeconds) } },
        )
      }
    }
  })

  app.addHook('onResponse', async (request, reply) => {
    if (!request.apiKey || request.cuCost <= 0) return
    const ok = reply.statusCode >= 200 && reply.statusCode < 300
    const { accountId } = request.apiKey
    // Reserved before the work (a key with a quota): given back unless the answer is a 2xx.
    if (request.cuReserved) {
      if (!ok) ctx.meter.charge({ accountId, cost: -request.cuCost })
    } else if (ok) ctx.meter.charge({ accountId, cost: request.cuCost })
  })
}

/**
 * Declares what this request costs: refuses it (402, nothing charged) when the account has
 * less left this month, and sets `X-Compute-Units-Cost`. A key with a quota reserves the cost
 * now (given back unless the answer is a 2xx); without one the charge happens on a 2xx.
 */
export async function meterRequest({
  ctx,
  request,
  reply,
  cost,
}: {
  ctx: ApiContext
  request: FastifyRequest
  reply: FastifyReply
  cost: number
}): Promise<void> {
  const key = request.apiKey
  if (key && cost > 0 && key.cuQuota !== null) {
    // A route that declares its cost twice reserves once.
    if (request.cuReserved) ctx.meter.charge({ accountId: key.accountId, cost: -request.cuCost })
    request.cuReserved = false
    const reserved = await ctx.meter.reserve({
      accountId: key.accountId,
      cuQuota: key.cuQuota,
      cost,
    })
    if (!reserved) {
      request.cuCost = 0
      throw new ApiError('QUOTA_EXCEEDED', 'This request would exceed your compute-unit quota')
    }
    request.cuReserved = true
  }
  request.cuCost = cost
  reply.header('X-Compute-Units-Cost', String(cost))
}
