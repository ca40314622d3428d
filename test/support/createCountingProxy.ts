import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A JSON-RPC proxy that forwards each request body unchanged (bytes in, bytes out: u64 values
 * and batch refusals pass as the node sent them) and counts the methods it saw.
 */
export async function createCountingProxy({
  target,
}: {
  target: string
}): Promise<{ url: string; seen: Map<string, number>; close(): Promise<void> }> {
  const seen = new Map<string, number>()
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    try {
      const parsed = JSON.parse(body.toString('utf8')) as
        | { method?: string }
        | { method?: string }[]
      for (const call of Array.isArray(parsed) ? parsed : [parsed])
        seen.set(String(call.method), (seen.get(String(call.method)) ?? 0) + 1)
    } catch {}
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    res.writeHead(answer.status, { 'content-type': 'application/json' })
    res.end(Buffer.from(await answer.arrayBuffer()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
