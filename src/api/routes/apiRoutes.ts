import type { RouteModule } from '../createApiServer.ts'
import { systemRoutes } from './systemRoutes.ts'

/** Every route module of the HTTP API, in registration order. */
export const API_ROUTES: readonly RouteModule[] = [systemRoutes]
