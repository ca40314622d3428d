import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { ApiContext } from './apiContext.ts'

/** Prometheus metrics: requests by route and status, latency, indexer lag per chain. */
export function createApiMetrics({ ctx }: { ctx: ApiContext }) {
  const registry = new Registry()
  const requests = new Counter({
    name: 'scry_http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'scry_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  })
  new Gauge({
    name: 'scry_indexer_lag_blocks',
    help: 'Blocks between the node head and the indexed block, per chain',
    labelNames: ['chain_id'] as const,
    registers: [registry],
    async collect() {
      const heads = new Map(ctx.nodeHeads().map((h) => [h.chainId, h.nodeHead]))
      for (const chain of ctx.chains) {
        const checkpoint = await ctx.store.getCheckpoint(chain.chainId).catch(() => undefined)
        const head = heads.get(chain.chainId)
        if (head !== undefined && checkpoint) {
          this.set({ chain_id: String(chain.chainId) }, Math.max(0, head - checkpoint.blockNumber))
        }
      }
    },
  })
  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    observe({
      route,
      method,
      status,
      seconds,
    }: {
      route: string
      method: string
      status: number
      seconds: number
    }) {
      requests.inc({ route, method, status: String(status) })
      latency.observe({ route }, seconds)
    },
  }
}
