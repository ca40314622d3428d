import type { FastifySchema } from 'fastify'
import type { TSchema } from 'typebox'
import type { ResponseProfile } from '../../config/responseProfiles.ts'
import type { ApiContext } from '../apiContext.ts'
import type { ApiServer } from '../createApiServer.ts'

/** A route's success answer in a profile other than `default`. */
export type ProfileShape = {
  /** The answer's schema: it serializes the answer and documents it in /openapi.json. */
  schema: TSchema
  /** Pure: the route's default answer → this profile's answer (typed by each route). */
  from: (body: never) => unknown
}

export type ProfileShapes = Partial<Record<Exclude<ResponseProfile, 'default'>, ProfileShape>>

declare module 'fastify' {
  interface FastifyRequest {
    /** The answer's profile: the key's, else the server's (set by `registerAuth`). */
    profile: ResponseProfile
  }
  interface FastifyContextConfig {
    /** This route's answer where a profile names things differently (none: one shape). */
    profiles?: ProfileShapes
  }
}

/**
 * The one place that picks an answer's shape per request. Routes answer in the default
 * shape and declare, in `config.profiles`, how other profiles differ; a 2xx answer of a
 * request whose profile the route declares is converted and serialized with that profile's
 * schema. Errors and undeclared profiles pass through unchanged.
 */
export function registerProfiles({ app, ctx }: { app: ApiServer; ctx: ApiContext }): void {
  app.decorateRequest('profile', ctx.responseProfile)
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (request.profile === 'default' || reply.statusCode >= 300) return payload
    const shape = request.routeOptions.config.profiles?.[request.profile]
    if (!shape) return payload
    // Compiled once per schema and route (Fastify caches it).
    reply.serializer(reply.compileSerializationSchema(shape.schema as Record<string, unknown>))
    return shape.from(payload as never)
  })
}

/**
 * @fastify/swagger `transform`: one operation per route, whose success answer is `anyOf`
 * the default shape and each profile's, titled by profile and named in the description.
 */
export function documentProfiles({
  schema,
  url,
  route,
}: {
  schema: FastifySchema
  url: string
  route: { config?: { profiles?: ProfileShapes } }
}): { schema: FastifySchema; url: string } {
  const profiles = Object.entries(route.config?.profiles ?? {}) as [string, ProfileShape][]
  const response = schema?.response as Record<string, object> | undefined
  if (!response || profiles.length === 0) return { schema, url }
  const status = Object.keys(response).find((code) => /^2/.test(code))
  if (status === undefined) return { schema, url }
  // Headers (X-Scry-Block-Numbers) describe the answer, whichever shape its body has.
  const { headers, ...byDefault } = response[status] as { headers?: object }
  const names = ['default', ...profiles.map(([name]) => name)]
  const note = `The answer's shape depends on the response profile of the API key (else the server's): ${names.map((n) => `\`${n}\``).join(', ')} (docs/migrating.md).`
  return {
    url,
    schema: {
      ...schema,
      description: schema.description ? `${schema.description}\n\n${note}` : note,
      response: {
        ...response,
        [status]: {
          description: `Success. ${note}`,
          ...(headers ? { headers } : {}),
          anyOf: [
            { ...byDefault, title: 'profile default' },
            ...profiles.map(([name, shape]) => ({ ...shape.schema, title: `profile ${name}` })),
          ],
        },
      },
    },
  }
}
