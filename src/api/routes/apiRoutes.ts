import type { RouteModule } from '../createApiServer.ts'
import { activityRoutes } from './activityRoutes.ts'
import { approvalsRoutes } from './approvalsRoutes.ts'
import { balancesRoutes } from './balancesRoutes.ts'
import { collectiblesRoutes } from './collectiblesRoutes.ts'
import { defiRoutes } from './defiRoutes.ts'
import { searchRoutes } from './searchRoutes.ts'
import { subscriptionsRoutes } from './subscriptionsRoutes.ts'
import { svmRoutes } from './svmRoutes.ts'
import { systemRoutes } from './systemRoutes.ts'
import { tokensRoutes } from './tokensRoutes.ts'
import { transactionsRoutes } from './transactionsRoutes.ts'
import { webhooksRoutes } from './webhooksRoutes.ts'

/** Every route module of the HTTP API, in registration order. */
export const API_ROUTES: readonly RouteModule[] = [
  systemRoutes,
  balancesRoutes,
  activityRoutes,
  transactionsRoutes,
  tokensRoutes,
  searchRoutes,
  approvalsRoutes,
  collectiblesRoutes,
  defiRoutes,
  subscriptionsRoutes,
  webhooksRoutes,
  svmRoutes,
]
