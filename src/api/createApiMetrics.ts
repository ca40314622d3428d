import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import { readReplicaLag } from '../store/readReplicaLag.ts'
import type { ApiContext } from './apiContext.ts'
import { readChainLags } from './readChainLags.ts'

/**
 * Prometheus metrics: requests by route and status, latency, indexer lag per chain (in every
 * API process: the node head comes from the chain's lock holder when this one indexes
 * nothing), and the read replica's lag when there is one.
 */
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
  // The per-chain gauges of one scrape share one read of the checkpoints (prom-client
  // collects the metrics of a scrape concurrently).
  let inflight: ReturnType<typeof readChainLags> | undefined
  const chainLags = () => {
    inflight ??= readChainLags(ctx).finally(() => {
      inflight = undefined
    })
    return inflight.catch(() => [])
  }
  new Gauge({
    name: 'scry_indexer_lag_blocks',
    help: 'Blocks between the node head and the indexed block, per chain',
    labelNames: ['chain_id'] as const,
    registers: [registry],
    async collect() {
      this.reset()
      for (const { chain, lag } of await chainLags()) {
        if (lag !== null) this.set({ chain_id: String(chain.chainId) }, lag)
      }
    },
  })
  if (ctx.reads !== ctx.store) {
    new Gauge({
      name: 'scry_read_replica_lag_blocks',
      help: 'Blocks the read replica is behind the primary database, per chain',
      labelNames: ['chain_id'] as const,
      registers: [registry],
      async collect() {
        this.reset()
        for (const { chain, replicaLag } of await chainLags()) {
          if (replicaLag !== null) this.set({ chain_id: String(chain.chainId) }, replicaLag)
        }
      },
    })
    new Gauge({
      name: 'scry_read_replica_lag_seconds',
      help: 'Replay lag of the read replica (streaming standby) in seconds',
      registers: [registry],
      async collect() {
        // An unlabelled gauge reads 0 after `reset()`; unknown (not a streaming standby, or
        // unreachable) is no sample, as for the per-chain gauges.
        this.reset()
        this.remove()
        const seconds = await readReplicaLag(ctx.reads).catch(() => null)
        if (seconds !== null) this.set(seconds)
      },
    })
  }
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
