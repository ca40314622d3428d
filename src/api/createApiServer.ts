import { randomUUID } from 'node:crypto'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify'
import { BaseError } from '../internal/errors.ts'
import { parseDbError, StoreUnavailableError } from '../store/parseDbError.ts'
import { ApiError, errorBody } from './ApiError.ts'
import { answerClientError } from './answerClientError.ts'
import type { ApiContext } from './apiContext.ts'
import {
  BLOCK_NUMBERS_DESCRIPTION,
  BLOCK_NUMBERS_HEADER,
  isDataRoute,
} from './blockNumbersHeader.ts'
import { createApiMetrics } from './createApiMetrics.ts'
import { createValidatorCompiler } from './createValidatorCompiler.ts'
import { holdsNul } from './holdsNul.ts'
import { documentProfiles, registerProfiles } from './profiles/registerProfiles.ts'
import { registerAuth } from './registerAuth.ts'
import { warnChainStates } from './warnChainStates.ts'
import { warnUnknownParameters } from './warnUnknownParameters.ts'

export type ApiServer = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  import('fastify').FastifyBaseLogger,
  TypeBoxTypeProvider
>

export type RouteModule = (app: ApiServer, ctx: ApiContext) => void | Promise<void>

const BODY_LIMIT = 256 * 1024
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The HTTP server: Fastify with TypeBox schemas on every route, one error handler mapping
 * every failure to the documented status and body (never a stack trace), X-Request-Id on
 * every response, API keys and metering, Prometheus metrics, `/openapi.json` and `/docs`.
 */
export async function createApiServer({
  ctx,
  routes,
  https,
}: {
  ctx: ApiContext
  routes: readonly RouteModule[]
  https?: { key: Buffer; cert: Buffer }
}): Promise<ApiServer> {
  const app = Fastify({
    ...(https ? { https } : {}),
    bodyLimit: BODY_LIMIT,
    trustProxy: ctx.https.trustProxy,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    logger: false,
    // Errors Fastify raises before routing (a malformed URL, an overlong path parameter).
    frameworkErrors: (error, request, rawReply) => {
      const reply = rawReply as unknown as FastifyReply
      const apiError =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiError('BAD_REQUEST', 'A path parameter is too long.')
          : new ApiError('BAD_REQUEST', 'The request URL is malformed.')
      reply.status(apiError.status).header('X-Request-Id', request.id).send(errorBody(apiError))
    },
    clientErrorHandler: answerClientError,
    // Requests that arrive while the server closes get the documented 503 (below), not
    // Fastify's own body without a request id or Retry-After.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as ApiServer
  app.setValidatorCompiler(createValidatorCompiler())

  // A body-less request (a DELETE, a rotate) that still says `Content-Type: application/json`,
  // as many clients do on every request, has no body rather than a 400; a route that needs one
  // says so through its schema.
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString()
    if (text === '') done(null, undefined)
    else
      parseJson(request, text, (error, value) => {
        if (error || !holdsNul(value)) done(error, value)
        else {
          done(
            new ApiError(
              'BAD_REQUEST',
              'Invalid body: a string holds a NUL character (\\u0000); remove it.',
            ),
            undefined,
          )
        }
      })
  })

  app.decorateRequest('apiKey', undefined)
  app.decorateRequest('cuCost', 0)
  app.decorateRequest('cuReserved', false)

  // Path patterns by method, to tell 405 from 404.
  const routeMethods: { pattern: RegExp; methods: Set<string> }[] = []
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) {
      // The docs page and its assets are public, like /openapi.json.
      route.config = { ...(route.config ?? {}), public: true }
      return
    }
    documentBlockNumbers(route)
    const pattern = new RegExp(`^${route.url.replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*')}/?$`)
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    const entry = routeMethods.find((r) => r.pattern.source === pattern.source)
    if (entry) for (const m of methods) entry.methods.add(m)
    else routeMethods.push({ pattern, methods: new Set(methods) })
  })

  // Before any plugin: encapsulated plugins (Swagger UI) inherit the handlers set so far.
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const apiError = toApiError(error)
    if (apiError.apiCode === 'INTERNAL_SERVER_ERROR') {
      ctx.logger.error({ request_id: request.id, err: error }, 'Request failed')
    }
    const svm = request.url.startsWith('/beta/svm/')
    reply.status(apiError.status).headers(apiError.headers).send(errorBody(apiError, { svm }))
  })
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    const match = routeMethods.find((r) => r.pattern.test(path))
    const error = match
      ? new ApiError('METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed on ${path}.`, {
          headers: { Allow: [...match.methods].join(', ') },
        })
      : new ApiError('NOT_FOUND', `No such path: ${path.slice(0, 200)}.`)
    reply.status(error.status).headers(error.headers).send(errorBody(error))
  })

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Scry API',
        version: '1',
        description:
          'Self-hosted onchain data: balances, activity, transactions, collectibles, token info and holders.',
      },
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Scry-Api-Key' } },
      },
      security: [{ apiKey: [] }],
    },
    transform: documentProfiles,
  })
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true })

  const metrics = createApiMetrics({ ctx })
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id)
    if (closing) {
      throw new ApiError(
        'UNAVAILABLE',
        'This server is shutting down. Send the request again: another replica, or this one once it is back, answers it.',
        { headers: { 'Retry-After': '1', Connection: 'close' } },
      )
    }
    // Refused before anything is read, on every path (routes without a body parser too).
    if (Number(request.headers['content-length'] ?? 0) > BODY_LIMIT) {
      throw new ApiError(
        'PAYLOAD_TOO_LARGE',
        `The request body is larger than ${BODY_LIMIT} bytes.`,
      )
    }
    if (!ctx.https.tls && !ctx.https.loopback) {
      // The client's side is the first of a list (each proxy may append); a scheme is
      // case-insensitive (RFC 3986).
      const header = ctx.https.trustProxy ? request.headers['x-forwarded-proto'] : undefined
      const proto = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim()
      if (proto?.toLowerCase() !== 'https') {
        throw new ApiError('HTTPS_REQUIRED', 'This service only accepts HTTPS requests.')
      }
    }
  })
  // A NUL in a path parameter (a subscription id): no id has one, and PostgreSQL text cannot
  // hold it (the query would fail). Query parameters that reach the store are checked by
  // their own rules; an unknown path with one is a 404 like any other.
  app.addHook('preValidation', async (request) => {
    if (!request.is404 && holdsNul(request.params)) {
      throw new ApiError('BAD_REQUEST', 'The path holds a NUL character (%00); remove it.')
    }
  })
  warnUnknownParameters({ app })
  warnChainStates({ app, ctx })
  registerProfiles({ app, ctx })
  registerAuth({ app, ctx })
  // The block numbers describe data that was served, the cost what is charged (a 2xx, set
  // before the work by `meterRequest`): an error answer carries neither.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode >= 300) {
      reply.removeHeader(BLOCK_NUMBERS_HEADER)
      reply.removeHeader('X-Compute-Units-Cost')
    }
    return payload
  })
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched'
    metrics.observe({
      route,
      method: request.method,
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    })
    ctx.logger.info(
      {
        request_id: request.id,
        method: request.method,
        route,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        cu: reply.statusCode < 300 ? request.cuCost : 0,
      },
      'Request',
    )
  })

  app.get(
    '/metrics',
    { config: { public: true }, schema: { hide: true } },
    async (_request, reply) => {
      reply.header('content-type', metrics.contentType)
      return metrics.render()
    },
  )

  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  )

  for (const route of routes) await route(app, ctx)
  return app
}

/** Adds `X-Scry-Block-Numbers` to the 200 answer of every data route in /openapi.json. */
function documentBlockNumbers(route: {
  method: string | string[]
  url: string
  schema?: { response?: unknown }
}): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method]
  if (!methods.some((method) => isDataRoute({ method, url: route.url }))) return
  const response = route.schema?.response as Record<string, object> | undefined
  const ok = response?.[200]
  if (!response || !ok) return
  response[200] = {
    ...ok,
    headers: { [BLOCK_NUMBERS_HEADER]: { type: 'string', description: BLOCK_NUMBERS_DESCRIPTION } },
  }
}

function toApiError(error: FastifyError | Error): ApiError {
  if (error instanceof ApiError) return error
  // Routes query the store directly: a driver error for a lost database is a 503, not a 500.
  if (
    !(error instanceof BaseError) &&
    parseDbError(error, 'query') instanceof StoreUnavailableError
  ) {
    return toApiError(parseDbError(error, 'query'))
  }
  if (error instanceof StoreUnavailableError) {
    return new ApiError(
      'UNAVAILABLE',
      'The service is temporarily unavailable; try again shortly.',
      {
        headers: { 'Retry-After': '5' },
      },
    )
  }
  const fe = error as FastifyError
  if (fe.validation) {
    const where = fe.validationContext ?? 'request'
    const errors = telling(fe.validation)
    const first = errors[0]
    const field = first?.instancePath
      ? first.instancePath.replace(/^\//, '').replace(/\//g, '.')
      : (first?.params as { missingProperty?: string })?.missingProperty
    return new ApiError(
      'BAD_REQUEST',
      `Invalid ${where}${field ? ` parameter ${field}` : ''}: ${describeFailure(errors)}.`,
    )
  }
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${BODY_LIMIT} bytes.`)
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Fastify's own client errors (bad JSON, bad content type, …): their messages are safe.
    return new ApiError('BAD_REQUEST', fe.message.slice(0, 300))
  }
  return new ApiError('INTERNAL_SERVER_ERROR', 'Internal server error.', { cause: error })
}

/**
 * The errors that say what is wrong: in a union with `null` (an optional or clearable field),
 * Ajv's first error is "must be null" and its last "must match a schema in anyOf", neither of
 * which tells a caller who sent a wrong value; the other branches' errors do.
 */
function telling(
  errors: NonNullable<FastifyError['validation']>,
): NonNullable<FastifyError['validation']> {
  const rest = errors.filter(
    (e) =>
      e.keyword !== 'anyOf' &&
      !(e.keyword === 'type' && (e.params as { type?: unknown }).type === 'null'),
  )
  return rest.length > 0 ? rest : errors
}

/**
 * What a failed schema check says, in the caller's terms: the values a choice allows (Ajv
 * reports each literal of a union as "must be equal to constant"), the field an object does
 * not take, else Ajv's own message.
 */
function describeFailure(errors: NonNullable<FastifyError['validation']>): string {
  const first = errors[0]
  if (!first) return 'invalid value'
  const params = first.params as {
    allowedValue?: unknown
    allowedValues?: unknown[]
    additionalProperty?: string
  }
  const allowed =
    first.keyword === 'enum'
      ? (params.allowedValues ?? [])
      : first.keyword === 'const'
        ? errors
            .filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath)
            .map((e) => (e.params as { allowedValue?: unknown }).allowedValue)
        : []
  if (allowed.length > 0) return `must be one of ${allowed.map(String).join(', ')}`
  if (first.keyword === 'additionalProperties' && params.additionalProperty !== undefined) {
    return `${params.additionalProperty.slice(0, 100)} is not a field it takes`
  }
  return first.message ?? 'invalid value'
}
