import type { RouteModule } from '../createApiServer.ts'
import { activityRoutes } from './activityRoutes.ts'
import { balancesRoutes } from './balancesRoutes.ts'
import { collectiblesRoutes } from './collectiblesRoutes.ts'
import { subscriptionsRoutes } from './subscriptionsRoutes.ts'
import { svmRoutes } from './svmRoutes.ts'
import { systemRoutes } from './systemRoutes.ts'
import { tokensRoutes } from './tokensRoutes.ts'
import { transactionsRoutes } from './transactionsRoutes.ts'

/** Every route module of the HTTP API, in registration order. */
export const API_ROUTES: readonly RouteModule[] = [
  systemRoutes,
  balancesRoutes,
  activityRoutes,
  transactionsRoutes,
  tokensRoutes,
  collectiblesRoutes,
  subscriptionsRoutes,
  svmRoutes,
]
