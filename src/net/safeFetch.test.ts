import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { FetchFailedError, FetchRefusedError, safeFetch } from './safeFetch.ts'

let server: Server
let base: string

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const hop = Number(url.searchParams.get('hops') ?? 0)
    if (url.pathname === '/ok') return res.end('{"name":"ok"}')
    if (url.pathname === '/redirect') {
      res.statusCode = 302
      res.setHeader('location', hop > 0 ? `/redirect?hops=${hop - 1}` : '/ok')
      return res.end()
    }
    if (url.pathname === '/to-file') {
      res.statusCode = 301
      res.setHeader('location', 'file:///etc/passwd')
      return res.end()
    }
    if (url.pathname === '/big') return res.end('x'.repeat(5000))
    if (url.pathname === '/big-stream') {
      res.write('x'.repeat(3000))
      setTimeout(() => res.end('x'.repeat(3000)), 10)
      return
    }
    if (url.pathname === '/slow') {
      setTimeout(() => res.end('{}'), 2000)
      return
    }
    if (url.pathname === '/busy') {
      res.statusCode = 503
      return res.end()
    }
    res.statusCode = 404
    res.end()
    return
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

test('default: fetches with allowPrivate', async () => {
  const r = await safeFetch({ url: `${base}/ok`, allowPrivate: true })
  expect([r.url, r.body.toString()]).toEqual([`${base}/ok`, '{"name":"ok"}'])
})

test('error: loopback and private addresses are refused without allowPrivate', async () => {
  await expect(safeFetch({ url: `${base}/ok` })).rejects.toThrowError(
    new FetchRefusedError(`Refused to fetch from a private address (${base.slice(7)}).`),
  )
  const port = (server.address() as AddressInfo).port
  await expect(safeFetch({ url: `http://localhost:${port}/ok` })).rejects.toThrowError(
    'Refused to fetch from localhost: it resolves to a private address.',
  )
  for (const url of [
    `http://[::1]:${port}/ok`,
    `http://[::ffff:127.0.0.1]:${port}/ok`,
    'http://10.0.0.1/',
    'http://100.64.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00::1]/',
  ]) {
    await expect(safeFetch({ url }), url).rejects.toBeInstanceOf(FetchRefusedError)
  }
})

test('behavior: redirects are followed by hand, at most 3, each hop checked', async () => {
  const r = await safeFetch({ url: `${base}/redirect?hops=2`, allowPrivate: true })
  expect([r.url, r.body.toString()]).toEqual([`${base}/ok`, '{"name":"ok"}'])
  await expect(
    safeFetch({ url: `${base}/redirect?hops=3`, allowPrivate: true }),
  ).rejects.toThrowError('More than 3 redirects from')
  await expect(safeFetch({ url: `${base}/to-file`, allowPrivate: true })).rejects.toThrowError(
    new FetchRefusedError('Refused to fetch a file: URL.'),
  )
})

test('error: size, time, status and scheme limits', async () => {
  await expect(
    safeFetch({ url: `${base}/big`, allowPrivate: true, maxBytes: 4096 }),
  ).rejects.toThrowError(new FetchRefusedError('The response is larger than 4096 bytes.'))
  await expect(
    safeFetch({ url: `${base}/big-stream`, allowPrivate: true, maxBytes: 4096 }),
  ).rejects.toThrowError(new FetchRefusedError('The response is larger than 4096 bytes.'))
  const slow = safeFetch({ url: `${base}/slow`, allowPrivate: true, timeoutMs: 200 })
  await expect(slow).rejects.toBeInstanceOf(FetchFailedError)
  await expect(slow).rejects.toThrowError(`No answer from ${base.slice(7)} within 200 ms.`)
  await expect(safeFetch({ url: `${base}/busy`, allowPrivate: true })).rejects.toBeInstanceOf(
    FetchFailedError,
  )
  await expect(safeFetch({ url: `${base}/nope`, allowPrivate: true })).rejects.toThrowError(
    new FetchRefusedError(`HTTP 404 from ${base.slice(7)}.`),
  )
  await expect(safeFetch({ url: 'file:///etc/passwd' })).rejects.toThrowError(
    'Refused to fetch a file: URL.',
  )
  await expect(safeFetch({ url: 'http://user:pw@example.com/' })).rejects.toThrowError(
    'Refused to fetch a URL with credentials.',
  )
})

test('behavior: the caller can abort', async () => {
  const controller = new AbortController()
  const pending = safeFetch({ url: `${base}/slow`, allowPrivate: true, signal: controller.signal })
  controller.abort(new Error('stopped'))
  await expect(pending).rejects.toThrowError('stopped')
})
