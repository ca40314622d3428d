import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ProxiedCall = { method: string; params: unknown[]; result: unknown; at: number }

/**
 * A JSON-RPC proxy that forwards each request body unchanged (bytes in, bytes out: u64 values
 * and batch refusals pass as the node sent them) and counts the methods it saw. `record`
 * also gets each call of the methods it names with the node's answer (for diagnostics).
 */
export async function createCountingProxy({
  target,
  record,
}: {
  target: string
  record?: { methods: readonly string[]; onCall(call: ProxiedCall): void }
}): Promise<{
  url: string
  seen: Map<string, number>
  /** HTTP requests (round trips) forwarded so far. */
  requests(): number
  close(): Promise<void>
}> {
  const seen = new Map<string, number>()
  let requests = 0
  const server = createServer(async (req, res) => {
    requests++
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    type Call = { id?: unknown; method?: string; params?: unknown[] }
    let calls: Call[] = []
    try {
      const parsed = JSON.parse(body.toString('utf8')) as Call | Call[]
      calls = Array.isArray(parsed) ? parsed : [parsed]
      for (const call of calls)
        seen.set(String(call.method), (seen.get(String(call.method)) ?? 0) + 1)
    } catch {}
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    const bytes = Buffer.from(await answer.arrayBuffer())
    res.writeHead(answer.status, { 'content-type': 'application/json' })
    res.end(bytes)
    if (record && calls.some((c) => record.methods.includes(String(c.method)))) {
      try {
        const parsed = JSON.parse(bytes.toString('utf8')) as
          | { id?: unknown; result?: unknown }
          | { id?: unknown; result?: unknown }[]
        const results = new Map((Array.isArray(parsed) ? parsed : [parsed]).map((r) => [r.id, r]))
        for (const call of calls) {
          if (!record.methods.includes(String(call.method))) continue
          const result = results.get(call.id)?.result
          record.onCall({
            method: String(call.method),
            params: call.params ?? [],
            result,
            at: Date.now(),
          })
        }
      } catch {}
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
