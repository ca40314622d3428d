import type { AddressInfo } from 'node:net'
import type { ApiContext } from '../../src/api/apiContext.ts'
import { createApiContext } from '../../src/api/createApiContext.ts'
import { type ApiServer, createApiServer, type RouteModule } from '../../src/api/createApiServer.ts'
import { API_ROUTES } from '../../src/api/routes/apiRoutes.ts'
import { CHAIN_CATALOGUE } from '../../src/chains/catalogue.ts'
import type { ChainConfig } from '../../src/config/types.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import type { Store } from '../../src/store/createStore.ts'

export type TestApi = {
  app: ApiServer
  ctx: ApiContext
  /** http://127.0.0.1:<port>, listening on a real socket. */
  url: string
  /** A key with no quota or rate limit. */
  key: string
  /** GET over the socket with the key; returns status, headers and parsed JSON. */
  get(
    path: string,
    init?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<TestResponse>
  close(): Promise<void>
}
export type TestResponse = { status: number; headers: Headers; body: any }

/** The whole API on a real socket over a store, with every route registered. */
export async function createTestApi({
  store,
  chains,
  overrides = {},
  routes = API_ROUTES,
}: {
  store: Store
  chains: ChainConfig[]
  overrides?: Partial<Parameters<typeof createApiContext>[0]>
  /** Default: every route of the API. */
  routes?: readonly RouteModule[]
}): Promise<TestApi> {
  const ctx = createApiContext({
    store,
    catalogue: CHAIN_CATALOGUE,
    chains,
    logger: silentLogger(),
    cursorSecret: 'test-cursor-secret',
    ...overrides,
  })
  const app = await createApiServer({ ctx, routes })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  const { key } = await ctx.accounts.createKey({ name: 'test' })
  return {
    app,
    ctx,
    url,
    key,
    async get(path, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) }
      const useKey = init.key === undefined ? key : init.key
      if (useKey !== null) headers['X-Scry-Api-Key'] = useKey
      const res = await fetch(`${url}${path}`, { headers })
      const text = await res.text()
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {}
      return { status: res.status, headers: res.headers, body }
    },
    async close() {
      await app.close()
      await ctx.close()
    },
  }
}
