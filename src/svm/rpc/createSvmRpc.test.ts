import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createSvmRpc } from './createSvmRpc.ts'

// A node that answers every call with `result: null` (a node in trouble, or one that lost a
// slot): the reads fail as node failures (Rpc* errors, which the API answers with 503), never
// as a TypeError that would become a 500.
let url: string
const server = createServer(async (req, res) => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  const answer = (call: { id: unknown }) => ({ jsonrpc: '2.0', id: call.id, result: null })
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)))
})

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

test('error: null answers are node failures, not TypeErrors', async () => {
  const rpc = createSvmRpc({ urls: [url] })
  try {
    for (const read of [
      () => rpc.getSlot(),
      () => rpc.getBalance('11111111111111111111111111111111'),
      () => rpc.getNativeSupply(),
    ]) {
      const error = await read().then(
        () => undefined,
        (e: unknown) => e,
      )
      expect((error as Error).name).toMatch(/^Rpc/)
    }
  } finally {
    rpc.close()
  }
})
