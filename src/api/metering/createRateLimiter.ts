import type { Redis } from 'ioredis'

export type RateDecision = {
  allowed: boolean
  limit: number
  remaining: number
  /** Seconds until the window resets. */
  resetSeconds: number
}

export type RateLimiter = {
  take(args: { keyId: string; rps: number }): Promise<RateDecision>
  close(): Promise<void>
}

/**
 * Requests per second per key, in fixed one-second windows. In memory by default; with a
 * Redis client, replicas share the counters (INCR + EXPIRE on `scry:rate:<key>:<second>`).
 * When a Redis call fails (a client without an offline queue fails at once while it is
 * disconnected: startApiServer's), each replica counts in memory instead (a key
 * gets up to its rate per replica): a rate limit is protection, and its store being down must
 * not turn every limited request into an error. `onFallback` hears each failure (the caller
 * logs them, sparingly).
 */
export function createRateLimiter({
  redis,
  onFallback = () => {},
}: {
  redis?: Redis
  onFallback?: (error: unknown) => void
} = {}): RateLimiter {
  const windows = new Map<string, { second: number; count: number }>()
  const decide = (count: number, rps: number): RateDecision => ({
    allowed: count <= rps,
    limit: rps,
    remaining: Math.max(0, rps - count),
    resetSeconds: 1,
  })
  return {
    async take({ keyId, rps }) {
      const second = Math.floor(Date.now() / 1000)
      if (redis) {
        const name = `scry:rate:${keyId}:${second}`
        try {
          const [[, count]] = (await redis.multi().incr(name).expire(name, 2).exec()) as [
            [unknown, number],
          ]
          return decide(count, rps)
        } catch (error) {
          onFallback(error)
        }
      }
      let w = windows.get(keyId)
      if (!w || w.second !== second) {
        w = { second, count: 0 }
        windows.set(keyId, w)
        if (windows.size > 100_000) windows.clear()
      }
      w.count++
      return decide(w.count, rps)
    },
    async close() {
      // A polite QUIT when connected; while Redis is away it fails at once (no offline queue),
      // and disconnect() stops the reconnect attempts that would keep the process alive.
      await redis?.quit().catch(() => {})
      redis?.disconnect()
    },
  }
}
