import { type AbiRegistry, createAbiRegistry } from '../evm/abi/createAbiRegistry.ts'
import { watchOperatorAbis } from '../evm/abi/loadOperatorAbis.ts'
import type { ApiContext } from './apiContext.ts'
import type { ApiServer } from './createApiServer.ts'

const registries = new WeakMap<ApiContext, Promise<AbiRegistry>>()

/**
 * One ABI registry per API context, shared by the route modules that decode (activity,
 * transactions): loaded when the first of them registers, reloaded every minute, stopped when
 * the server closes. (Until `ApiContext` carries a registry of its own.)
 */
export function abiRegistryForApi({
  app,
  ctx,
}: {
  app: ApiServer
  ctx: ApiContext
}): Promise<AbiRegistry> {
  let registry = registries.get(ctx)
  if (!registry) {
    const stop = new AbortController()
    app.addHook('onClose', async () => stop.abort())
    registry = (async () => {
      const created = createAbiRegistry()
      await watchOperatorAbis({
        store: ctx.store,
        registry: created,
        logger: ctx.logger,
        signal: stop.signal,
      })
      return created
    })()
    registries.set(ctx, registry)
  }
  return registry
}
