import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFaultProxy } from '../../../test/support/createFaultProxy.ts'
import { freePort } from '../../../test/support/freePort.ts'
import { createRpcClient } from './createRpcClient.ts'
import { RpcResponseError, RpcUnavailableError, RpcWrongChainError } from './errors.ts'
import { isMethodUnsupported } from './shouldRetry.ts'

// Small local launcher; the shared one will live in src/dev/.
const anvilBin = 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil'

async function startAnvil(chainId?: number) {
  const port = await freePort()
  const args = ['--port', String(port), '--silent']
  if (chainId !== undefined) args.push('--chain-id', String(chainId))
  const child: ChildProcess = spawn(anvilBin, args, { stdio: 'ignore' })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      })
      if (response.ok) break
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { port, url, wsUrl: `ws://127.0.0.1:${port}`, stop: () => child.kill() }
}

/** A real HTTP server answering with `handler`; counts requests. */
async function startServer(
  handler: (body: string, response: ServerResponse, request: IncomingMessage) => void,
) {
  let requests = 0
  const server = createServer(async (request, response) => {
    let body = ''
    for await (const chunk of request) body += chunk
    requests++
    handler(body, response, request)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}/v3/secret-key?apikey=secret`,
    port,
    requests: () => requests,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}

async function forwardTo(target: string, body: string, response: ServerResponse) {
  const answer = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })
  response.writeHead(200, { 'content-type': 'application/json' }).end(await answer.text())
}

/** Messages carry ports chosen at random; normalise them for snapshots. */
function normalise(error: unknown, ports: number[]) {
  let message = error instanceof Error ? error.message : String(error)
  for (const port of ports) message = message.replaceAll(String(port), 'PORT')
  return message
}

let anvil: Awaited<ReturnType<typeof startAnvil>>
const addresses = Array.from(
  { length: 500 },
  (_, i) => `0x${(0xa000 + i).toString(16).padStart(40, '0')}` as const,
)
const balanceOf = (i: number) => BigInt(i) * 1_000_000_007n + 1n
// init code that reverts with empty data
const revertingCall = { method: 'eth_call', params: [{ data: '0x60006000fd' }, 'latest'] }

beforeAll(async () => {
  anvil = await startAnvil()
  const client = createRpcClient({ urls: [anvil.url] })
  const set = await client.batch(
    addresses.map((address, i) => ({
      method: 'anvil_setBalance',
      params: [address, `0x${balanceOf(i).toString(16)}`],
    })),
  )
  expect(set.every((item) => item.ok)).toBe(true)
})

afterAll(() => anvil?.stop())

describe('request', () => {
  test('default', async () => {
    const client = createRpcClient({ urls: [anvil.url] })
    expect(await client.request({ method: 'eth_chainId' })).toBe('0x7a69')
  })

  test('error: a revert is thrown as RpcResponseError, once', async () => {
    const proxy = await createFaultProxy({ target: anvil.url, failRate: 0, rateLimitRate: 0 })
    const client = createRpcClient({ urls: [proxy.url] })
    const error = await client.request(revertingCall).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcResponseError)
    expect((error as RpcResponseError).rpcCode).toBe(3)
    expect(normalise(error, [Number(new URL(proxy.url).port)])).toMatchInlineSnapshot(
      `"RPC eth_call on 127.0.0.1:PORT failed with code 3: execution reverted"`,
    )
    expect(proxy.stats().requests).toBe(1)
    await proxy.close()
  })

  test('error: an unknown method is not retried and reads as unsupported', async () => {
    const proxy = await createFaultProxy({ target: anvil.url, failRate: 0, rateLimitRate: 0 })
    const client = createRpcClient({ urls: [proxy.url] })
    const error = await client.request({ method: 'eth_nope' }).catch((e: unknown) => e)
    expect(isMethodUnsupported(error)).toBe(true)
    expect(proxy.stats().requests).toBe(1)
    await proxy.close()
  })

  test('behavior: fails over from a dead endpoint', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/key`
    const client = createRpcClient({ urls: [dead, anvil.url] })
    expect(await client.request({ method: 'eth_chainId' })).toBe('0x7a69')
  })

  test('behavior: with chainId, an endpoint of another chain is never used, and named', async () => {
    const other = await startAnvil(8453)
    try {
      const counted = await startServer(
        (body, response) => void forwardTo(other.url, body, response),
      )
      const dead = `http://127.0.0.1:${await freePort()}`
      // First in order, but another chain: the next one answers.
      const client = createRpcClient({ urls: [counted.url, anvil.url], chainId: 31337 })
      expect(await client.request({ method: 'eth_blockNumber' })).toMatch(/^0x/)
      expect(await client.checkChainIds!()).toEqual([{ url: counted.url, chainId: 8453 }])
      expect(counted.requests()).toBe(1) // its eth_chainId only
      // The right node down and a backup of another chain: unavailable, never the backup's answer.
      const failover = createRpcClient({
        urls: [dead, counted.url],
        chainId: 31337,
        retryCount: 3,
        retryDelayMs: 1,
      })
      await expect(failover.request({ method: 'eth_blockNumber' })).rejects.toBeInstanceOf(
        RpcUnavailableError,
      )
      expect(counted.requests()).toBe(2)
      // Only nodes of another chain: said so.
      const wrong = createRpcClient({ urls: [other.url], chainId: 31337 })
      const error = await wrong.request({ method: 'eth_blockNumber' }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(RpcWrongChainError)
      expect(normalise(error, [other.port])).toMatch(
        /^The node at http:\/\/127\.0\.0\.1:PORT is chain 8453, not 31337/,
      )
      counted.close()
    } finally {
      other.stop()
    }
  })

  test('behavior: a failing endpoint is demoted', async () => {
    const failing = await startServer((_, response) => response.writeHead(503).end())
    const client = createRpcClient({ urls: [failing.url, anvil.url] })
    expect(await client.request({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(await client.request({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(await client.batch([{ method: 'eth_chainId' }])).toEqual([
      { ok: true, result: '0x7a69' },
    ])
    expect(failing.requests()).toBe(1)
    failing.close()
  })

  test('error: HTTP 401 is not retried', async () => {
    const server = await startServer((_, response) => response.writeHead(401).end('no key'))
    const client = createRpcClient({ urls: [server.url] })
    const error = await client.request({ method: 'eth_chainId' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcUnavailableError)
    expect(normalise(error, [server.port])).toMatchInlineSnapshot(`
      "RPC eth_chainId failed on 127.0.0.1:PORT after 1 attempt

      Details: RPC eth_chainId on 127.0.0.1:PORT failed with HTTP 401"
    `)
    expect(server.requests()).toBe(1)
    server.close()
  })

  test('behavior: HTTP 401 on one endpoint moves to the next', async () => {
    const server = await startServer((_, response) => response.writeHead(401).end('no key'))
    const client = createRpcClient({ urls: [server.url, anvil.url] })
    expect(await client.request({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(server.requests()).toBe(1)
    server.close()
  })

  test('error: timeout', async () => {
    const server = await startServer(() => {})
    const client = createRpcClient({ urls: [server.url], timeoutMs: 100, retryCount: 1 })
    const error = await client.request({ method: 'eth_chainId' }).catch((e: unknown) => e)
    expect(normalise(error, [server.port])).toMatchInlineSnapshot(`
      "RPC eth_chainId failed on 127.0.0.1:PORT after 2 attempts

      Details: RPC eth_chainId on 127.0.0.1:PORT timed out after 100 ms"
    `)
    expect(server.requests()).toBe(2)
    server.close()
  })

  test('behavior: aborting rejects promptly with the reason and does not retry', async () => {
    const server = await startServer(() => {})
    const client = createRpcClient({ urls: [server.url] })
    const controller = new AbortController()
    const reason = new Error('stop')
    setTimeout(() => controller.abort(reason), 50)
    const started = Date.now()
    await expect(
      client.request({ method: 'eth_chainId' }, { signal: controller.signal }),
    ).rejects.toBe(reason)
    expect(Date.now() - started).toBeLessThan(1000)
    expect(server.requests()).toBe(1)
    server.close()
  })

  test('behavior: malformed answers are retried', async () => {
    const answers = [
      (r: ServerResponse) => r.writeHead(200).end('<html>bad gateway</html>'),
      (r: ServerResponse) => r.writeHead(200).end('{"jsonrpc":"2.0","id":999999,"result":"0x1"}'),
      (r: ServerResponse) => r.writeHead(200).end('{"jsonrpc":"2.0","id":1}'),
      (r: ServerResponse) => r.writeHead(200).end('[]'),
      (r: ServerResponse) => r.writeHead(502).end(),
    ]
    let calls = 0
    const server = await startServer((body, response) => {
      const answer = answers[calls++]
      if (answer) answer(response)
      else void forwardTo(anvil.url, body, response)
    })
    const client = createRpcClient({ urls: [server.url], retryDelayMs: 1 })
    expect(await client.request({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(server.requests()).toBe(6)
    server.close()
  })

  test('behavior: honours Retry-After on 429', async () => {
    let calls = 0
    const server = await startServer((body, response) => {
      if (calls++ === 0) response.writeHead(429, { 'retry-after': '1' }).end()
      else void forwardTo(anvil.url, body, response)
    })
    const client = createRpcClient({ urls: [server.url], retryDelayMs: 1 })
    const started = Date.now()
    expect(await client.request({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    server.close()
  })

  test('behavior: a JSON-RPC error sent with HTTP 400 is an answer, not an endpoint failure', async () => {
    const server = await startServer((body, response) => {
      const { id } = JSON.parse(body) as { id: number }
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: 'bad address' } }),
        )
    })
    const client = createRpcClient({ urls: [server.url] })
    const error = await client.request({ method: 'eth_getBalance' }).catch((e: unknown) => e)
    expect(normalise(error, [server.port])).toMatchInlineSnapshot(
      `"RPC eth_getBalance on 127.0.0.1:PORT failed with code -32602: bad address"`,
    )
    expect(server.requests()).toBe(1)
    server.close()
  })

  test('behavior: background calls wait behind the others and leave them a slot', async () => {
    // `slow` is answered only when the test says so; everything else at once.
    const held: (() => void)[] = []
    const server = await startServer((body, response) => {
      const { id, method } = JSON.parse(body) as { id: number; method: string }
      const answer = () => response.end(JSON.stringify({ jsonrpc: '2.0', id, result: method }))
      if (method === 'slow') held.push(answer)
      else answer()
    })
    const client = createRpcClient({ urls: [server.url], concurrency: 3 })
    const later = Array.from({ length: 4 }, () =>
      client.request<string>({ method: 'slow' }, { background: true }),
    )
    // Two of three slots at most go to background calls; the third serves this one at once.
    expect(await client.request({ method: 'eth_chainId' })).toBe('eth_chainId')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(held.length).toBe(2)
    // A call that waits for nothing but a slot goes before the background calls waiting.
    const slowNow = client.request<string>({ method: 'slow' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(held.length).toBe(3)
    held.shift()?.()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(held.length).toBe(3)
    while (held.length > 0) {
      held.shift()?.()
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(await Promise.all([...later, slowNow])).toEqual(Array(5).fill('slow'))
    client.close()
    server.close()
  })

  test('error: closed client', async () => {
    const client = createRpcClient({ urls: [anvil.url] })
    client.close()
    await expect(
      client.request({ method: 'eth_chainId' }),
    ).rejects.toThrowErrorMatchingInlineSnapshot(`[NonRetryableError: RPC client is closed]`)
  })

  test('error: invalid urls', () => {
    expect(() =>
      createRpcClient({ urls: ['ftp://example.com'] }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[ConfigError: RPC urls must be one or more http(s):// or ws(s):// urls]`,
    )
  })

  test('behavior: ws-only endpoints', async () => {
    const client = createRpcClient({ urls: [anvil.wsUrl] })
    expect(await client.request({ method: 'eth_chainId' })).toBe('0x7a69')
    const results = await client.batch(
      addresses.slice(0, 20).map((address) => ({
        method: 'eth_getBalance',
        params: [address, 'latest'],
      })),
    )
    expect(results.map((r) => (r.ok ? BigInt(r.result as string) : r.error))).toEqual(
      addresses.slice(0, 20).map((_, i) => balanceOf(i)),
    )
    client.close()
  })
})

describe('batch', () => {
  test('default: results in input order', async () => {
    const client = createRpcClient({ urls: [anvil.url], batchSize: 7, concurrency: 3 })
    const results = await client.batch<string>(
      addresses.map((address) => ({ method: 'eth_getBalance', params: [address, 'latest'] })),
    )
    expect(results.map((r) => (r.ok ? BigInt(r.result) : r.error))).toEqual(
      addresses.map((_, i) => balanceOf(i)),
    )
  })

  test('args: empty', async () => {
    const client = createRpcClient({ urls: [anvil.url] })
    expect(await client.batch([])).toEqual([])
  })

  test('behavior: a non-retryable item error stays with its item', async () => {
    const proxy = await createFaultProxy({ target: anvil.url, failRate: 0, rateLimitRate: 0 })
    const client = createRpcClient({ urls: [proxy.url] })
    const results = await client.batch([
      { method: 'eth_chainId' },
      revertingCall,
      { method: 'eth_getBalance', params: ['0xzz', 'latest'] },
      { method: 'eth_nope' },
      { method: 'eth_getBalance', params: [addresses[3], 'latest'] },
    ])
    expect(results.map((r) => (r.ok ? r.result : [r.error.rpcCode, r.error.rpcMessage]))).toEqual([
      '0x7a69',
      [3, 'execution reverted'],
      [-32602, 'invalid string length'],
      [-32601, 'Method not found'],
      `0x${balanceOf(3).toString(16)}`,
    ])
    expect(proxy.stats().requests).toBe(1)
    await proxy.close()
  })

  test('behavior: retries only the items whose answers are missing', async () => {
    const sizes: number[] = []
    const server = await startServer(async (body, response) => {
      sizes.push((JSON.parse(body) as unknown[]).length)
      const answer = await fetch(anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      const items = (await answer.json()) as { id: number }[]
      let reply: unknown[] = items
      // first answer: two items only; second: one item fails with "header not found"
      if (sizes.length === 1) reply = items.slice(0, 2)
      if (sizes.length === 2) {
        const [first, ...rest] = items
        const busy = {
          jsonrpc: '2.0',
          id: first?.id,
          error: { code: -32000, message: 'header not found' },
        }
        reply = [busy, ...rest]
      }
      response.end(JSON.stringify(reply))
    })
    const client = createRpcClient({ urls: [server.url], retryDelayMs: 1 })
    const results = await client.batch<string>(
      addresses
        .slice(0, 5)
        .map((address) => ({ method: 'eth_getBalance', params: [address, 'latest'] })),
    )
    expect(results.map((r) => (r.ok ? BigInt(r.result) : r.error))).toEqual(
      addresses.slice(0, 5).map((_, i) => balanceOf(i)),
    )
    expect(sizes).toEqual([5, 3, 1])
    server.close()
  })

  test('behavior: a batch answered with one error object is retried', async () => {
    let calls = 0
    const server = await startServer((body, response) => {
      if (calls++ === 0) {
        response.end(
          '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}}',
        )
      } else void forwardTo(anvil.url, body, response)
    })
    const client = createRpcClient({ urls: [server.url], retryDelayMs: 1 })
    const results = await client.batch([{ method: 'eth_chainId' }, { method: 'eth_chainId' }])
    expect(results).toEqual([
      { ok: true, result: '0x7a69' },
      { ok: true, result: '0x7a69' },
    ])
    server.close()
  })

  test('error: exhausted retries throw for the whole batch', async () => {
    const server = await startServer((_, response) => response.writeHead(503).end())
    const client = createRpcClient({ urls: [server.url], retryCount: 2, retryDelayMs: 1 })
    const error = await client
      .batch([{ method: 'eth_chainId' }, { method: 'eth_blockNumber' }])
      .catch((e: unknown) => e)
    expect(normalise(error, [server.port])).toMatchInlineSnapshot(`
      "RPC batch of 2 (eth_chainId, eth_blockNumber) failed on 127.0.0.1:PORT after 3 attempts

      Details: RPC batch of 2 (eth_chainId, eth_blockNumber) on 127.0.0.1:PORT failed with HTTP 503"
    `)
    expect(server.requests()).toBe(3)
    server.close()
  })

  test('behavior: aborting rejects with the reason', async () => {
    const server = await startServer(() => {})
    const client = createRpcClient({ urls: [server.url], batchSize: 1 })
    const controller = new AbortController()
    const reason = new Error('stop')
    setTimeout(() => controller.abort(reason), 50)
    await expect(
      client.batch([{ method: 'eth_chainId' }, { method: 'eth_chainId' }], {
        signal: controller.signal,
      }),
    ).rejects.toBe(reason)
    server.close()
  })
})

describe('through a faulty proxy', () => {
  test('behavior: 1000 calls all succeed with the right values', async () => {
    const proxy = await createFaultProxy({ target: anvil.url, seed: 42 })
    const client = createRpcClient({ urls: [proxy.url], retryCount: 12, retryDelayMs: 20 })
    const blockNumber = await createRpcClient({ urls: [anvil.url] }).request({
      method: 'eth_blockNumber',
    })
    const calls = addresses.flatMap((address) => [
      { method: 'eth_getBalance', params: [address, 'latest'] },
      { method: 'eth_blockNumber' },
    ])
    const results = await client.batch<string>(calls)
    const expected = addresses.flatMap((_, i) => [`0x${balanceOf(i).toString(16)}`, blockNumber])
    expect(results.map((r) => (r.ok ? r.result : r.error))).toEqual(expected)

    // single requests too, concurrently
    const singles = await Promise.all(
      addresses
        .slice(0, 100)
        .map((address) =>
          client.request({ method: 'eth_getBalance', params: [address, 'latest'] }),
        ),
    )
    expect(singles).toEqual(expected.filter((_, i) => i % 2 === 0).slice(0, 100))

    const stats = proxy.stats()
    expect(stats.closed + stats.serverErrors + stats.garbage + stats.partial).toBeGreaterThan(0)
    expect(stats.rateLimited).toBeGreaterThan(0)
    await proxy.close()
  })
})
