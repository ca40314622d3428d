import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ReceivedWebhook = { headers: IncomingHttpHeaders; raw: string; body: any; at: number }

/** What the receiver does with a request: answer with a status (after a delay), or hang. */
export type ReceiverAction = { status: number; delayMs?: number } | 'hang'

/**
 * A real local HTTP receiver for webhook tests: records every request (headers, raw body)
 * and answers as `respond` says, so that it can fail, hang and recover.
 */
export async function createWebhookReceiver({
  respond = () => ({ status: 200 }),
}: {
  respond?: (request: ReceivedWebhook, index: number) => ReceiverAction
} = {}) {
  const received: ReceivedWebhook[] = []
  const waiters = new Set<() => void>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: unknown
      try {
        body = JSON.parse(raw)
      } catch {
        body = raw
      }
      const request = { headers: req.headers, raw, body, at: Date.now() }
      const action = respond(request, received.length)
      received.push(request)
      for (const w of waiters) w()
      if (action === 'hang') return
      setTimeout(() => res.writeHead(action.status).end('ok'), action.delayMs ?? 0)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Resolves once `predicate` holds over what was received. */
    async until(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs
      while (!predicate(received)) {
        if (Date.now() > end) throw new Error(`receiver: condition not met in ${timeoutMs} ms`)
        await new Promise<void>((r) => {
          const t = setTimeout(r, 50)
          waiters.add(() => {
            clearTimeout(t)
            r()
          })
        })
        waiters.clear()
      }
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}

/** Creates a subscription through the API (201 expected); returns its id and secret. */
export async function subscribe({
  api,
  body,
}: {
  api: { url: string; key: string }
  body: Record<string, unknown>
}): Promise<{ id: string; secret: string }> {
  const res = await fetch(`${api.url}/v1/evm/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-scry-api-key': api.key },
    body: JSON.stringify(body),
  })
  if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`)
  return (await res.json()) as { id: string; secret: string }
}
