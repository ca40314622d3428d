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
 */
export function createRateLimiter({ redis }: { redis?: Redis } = {}): RateLimiter {
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
        const [[, count]] = (await redis.multi().incr(name).expire(name, 2).exec()) as [
          [unknown, number],
        ]
        return decide(count, rps)
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
      await redis?.quit()
    },
  }
}
