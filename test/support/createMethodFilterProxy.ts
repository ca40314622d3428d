import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A JSON-RPC proxy that answers "method not found" (-32601) for the given methods, like a node
 * that lacks them, and forwards everything else. For testing the fallbacks of fetch.
 */
export async function createMethodFilterProxy({
  target,
  hide = [],
  refuse,
}: {
  target: string
  hide?: readonly string[]
  /** Answers a call with this JSON-RPC error instead of forwarding it (e.g. missing state). */
  refuse?: (call: {
    method: string
    params: unknown[]
  }) => { code: number; message: string } | undefined
}): Promise<{ url: string; seen: Map<string, number>; close(): Promise<void> }> {
  const seen = new Map<string, number>()
  const answer = (call: { id: unknown; method: string; params?: unknown[] }) => {
    seen.set(call.method, (seen.get(call.method) ?? 0) + 1)
    const error = refuse?.({ method: call.method, params: call.params ?? [] })
    if (error) return { jsonrpc: '2.0', id: call.id, error }
    return hide.includes(call.method)
      ? {
          jsonrpc: '2.0',
          id: call.id,
          error: {
            code: -32601,
            message: `the method ${call.method} does not exist/is not available`,
          },
        }
      : undefined
  }
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    const calls: { id: unknown; method: string; params?: unknown[] }[] = Array.isArray(body)
      ? body
      : [body]
    const refused = calls.map(answer)
    const pass = calls.filter((_, i) => refused[i] === undefined)
    let forwarded: unknown[] = []
    if (pass.length > 0) {
      const r = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(pass),
      })
      forwarded = (await r.json()) as unknown[]
    }
    const byId = new Map(forwarded.map((f) => [(f as { id: unknown }).id, f]))
    const out = calls.map((c, i) => refused[i] ?? byId.get(c.id))
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(Array.isArray(body) ? out : out[0]))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
