import { Redis } from 'ioredis'
import { afterAll, expect, test } from 'vitest'
import { createRateLimiter } from './createRateLimiter.ts'

const clients: Redis[] = []
afterAll(() => {
  for (const c of clients) c.disconnect()
})

const connect = (url: string) => {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
  redis.on('error', () => {})
  clients.push(redis)
  return redis
}

test("default: replicas on one Redis share a key's window", async () => {
  const [a, b] = [connect('redis://127.0.0.1:6379'), connect('redis://127.0.0.1:6379')]
  await Promise.all([a, b].map((r) => new Promise((resolve) => r.once('ready', resolve))))
  const keyId = `test-${process.pid}-${Date.now()}`
  const one = createRateLimiter({ redis: a })
  const two = createRateLimiter({ redis: b })
  // Both in the same second (retried if the second turned over in between).
  for (;;) {
    const second = Math.floor(Date.now() / 1000)
    const first = await one.take({ keyId: `${keyId}-${second}`, rps: 1 })
    const next = await two.take({ keyId: `${keyId}-${second}`, rps: 1 })
    if (Math.floor(Date.now() / 1000) !== second) continue
    expect(first.allowed).toBe(true)
    expect(next.allowed).toBe(false)
    break
  }
})

test('behavior: with Redis unreachable, a key is limited in memory at once, and the fallback is reported', async () => {
  const down = connect('redis://127.0.0.1:9')
  const reported: unknown[] = []
  const limiter = createRateLimiter({ redis: down, onFallback: (e) => reported.push(e) })
  const started = Date.now()
  const decisions = []
  for (let i = 0; i < 3; i++) decisions.push(await limiter.take({ keyId: 'k', rps: 2 }))
  expect(Date.now() - started).toBeLessThan(500)
  // The three land in one or two one-second windows: at least one of them was over the rate,
  // unless the second turned over between them.
  expect(decisions[0]?.allowed).toBe(true)
  expect(decisions.map((d) => d.limit)).toEqual([2, 2, 2])
  expect(reported.length).toBe(3)
  // Shutting down while Redis is away ends (it threw, and a SIGTERM left the API running).
  await expect(limiter.close()).resolves.toBeUndefined()
  await new Promise((resolve) =>
    down.status === 'end' ? resolve(null) : down.once('end', resolve),
  )
})
