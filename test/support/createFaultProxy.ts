import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type FaultProxyOptions = {
  /** The JSON-RPC endpoint requests are forwarded to. */
  target: string
  /** Share of requests that fail: socket closed, HTTP 500, non-JSON, or half a batch answer. */
  failRate?: number
  /** Share of forwarded requests held back by `delayMs` first. */
  delayRate?: number
  delayMs?: number
  /** Share of requests answered 429 with `Retry-After: 0` or `1`. */
  rateLimitRate?: number
  /** Same seed, same sequence of faults (for the same order of arriving requests). */
  seed?: number
}

export type FaultProxyStats = {
  requests: number
  forwarded: number
  delayed: number
  closed: number
  serverErrors: number
  garbage: number
  partial: number
  rateLimited: number
}

export type FaultProxy = {
  url: string
  stats(): FaultProxyStats
  close(): Promise<void>
}

/**
 * A real HTTP server on 127.0.0.1 standing between an RPC client and a node, failing, delaying
 * and rate-limiting a random share of the requests it receives.
 */
export async function createFaultProxy({
  target,
  failRate = 0.3,
  delayRate = 0.1,
  delayMs = 200,
  rateLimitRate = 0.1,
  seed = Math.floor(Math.random() * 2 ** 32),
}: FaultProxyOptions): Promise<FaultProxy> {
  const random = mulberry32(seed)
  const counts: FaultProxyStats = {
    requests: 0,
    forwarded: 0,
    delayed: 0,
    closed: 0,
    serverErrors: 0,
    garbage: 0,
    partial: 0,
    rateLimited: 0,
  }

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString()
    counts.requests++
    // Draw every number up front so the sequence depends only on the order of arrival.
    const roll = random()
    const kind = random()
    const delay = random() < delayRate

    if (roll < failRate) {
      if (kind < 0.25) {
        counts.closed++
        request.socket.destroy()
        return
      }
      if (kind < 0.5) {
        counts.serverErrors++
        response.writeHead(500, { 'content-type': 'text/plain' }).end('internal error')
        return
      }
      if (kind < 0.75) {
        counts.garbage++
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0",')
        return
      }
      counts.partial++
      try {
        const answer = await forward(target, body)
        response.writeHead(200, { 'content-type': 'application/json' }).end(damage(answer.text))
      } catch {
        request.socket.destroy()
      }
      return
    }
    if (roll < failRate + rateLimitRate) {
      counts.rateLimited++
      response
        .writeHead(429, { 'retry-after': kind < 0.5 ? '0' : '1', 'content-type': 'text/plain' })
        .end('too many requests')
      return
    }
    if (delay) {
      counts.delayed++
      await new Promise((resolve) => setTimeout(resolve, delayMs))
    }
    try {
      const answer = await forward(target, body)
      counts.forwarded++
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.text)
    } catch {
      request.socket.destroy()
    }
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function forward(target: string, body: string) {
  const response = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })
  return { status: response.status, text: await response.text() }
}

/** A batch answer missing every other item, or a single answer carrying another request's id. */
function damage(text: string): string {
  try {
    const parsed = JSON.parse(text) as unknown
    if (Array.isArray(parsed)) return JSON.stringify(parsed.filter((_, index) => index % 2 === 1))
    if (typeof parsed === 'object' && parsed !== null && 'id' in parsed) {
      return JSON.stringify({ ...parsed, id: typeof parsed.id === 'number' ? -parsed.id : 'x' })
    }
  } catch {}
  return 'garbage'
}

/** A small seeded PRNG (mulberry32): deterministic sequences without a dependency. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
