import { answersWithWarnings } from './answersWithWarnings.ts'
import type { ApiServer } from './createApiServer.ts'
import type { Warning } from './params.ts'

/** What a route's schema says about unknown parameters: the names it takes, if it warns. */
type RouteParameters = { known: ReadonlySet<string> } | undefined

const byRoute = new WeakMap<object, RouteParameters>()

/**
 * A query parameter a route does not take is ignored, as the hosted API did, so a client that
 * sends extras keeps working; but a typo (`chain_id=1` for `chain_ids`) would silently answer
 * for the default chains. Where the route's 2xx answer has `warnings`, such parameters are
 * named in one: `{ code: 'UNKNOWN_PARAMETERS', message, parameters }`. Runs before the
 * response profiles convert the answer (both shapes carry `warnings`).
 */
export function warnUnknownParameters({ app }: { app: ApiServer }): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode >= 300 || payload === null || typeof payload !== 'object') return payload
    const schema = request.routeOptions.schema
    if (!schema) return payload
    let route = byRoute.get(schema)
    if (!byRoute.has(schema)) {
      route = readRouteParameters(schema)
      byRoute.set(schema, route)
    }
    if (!route) return payload
    const unknown = Object.keys((request.query ?? {}) as object).filter((n) => !route.known.has(n))
    if (unknown.length === 0) return payload
    const shown = unknown.slice(0, 10).map((n) => n.slice(0, 64))
    const warning: Warning & { parameters: string[] } = {
      code: 'UNKNOWN_PARAMETERS',
      message: `Ignored query parameters this endpoint does not take: ${shown.join(', ')}. It takes: ${[...route.known].join(', ')}.`,
      parameters: shown,
    }
    const body = payload as { warnings?: Warning[] }
    return { ...body, warnings: [...(body.warnings ?? []), warning] }
  })
}

function readRouteParameters(schema: {
  querystring?: unknown
  response?: unknown
}): RouteParameters {
  const query = schema.querystring as { properties?: Record<string, unknown> } | undefined
  if (!query?.properties || !answersWithWarnings(schema)) return undefined
  return { known: new Set(Object.keys(query.properties)) }
}
