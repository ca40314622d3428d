import { connect } from 'node:net'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApi, type TestApi } from '../../test/support/createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from '../../test/support/createTestStore.ts'
import { testChainConfig } from '../../test/support/testChain.ts'
import type { RouteModule } from './createApiServer.ts'
import { API_ROUTES } from './routes/apiRoutes.ts'

for (const dialect of DIALECTS) {
  describe(`API server (${dialect})`, () => {
    let t: TestStore
    let api: TestApi
    beforeAll(async () => {
      t = await createTestStore(dialect)
      api = await createTestApi({
        store: t.store,
        chains: [
          testChainConfig({ chainId: 1, rpc: ['http://127.0.0.1:1'] }),
          testChainConfig({ chainId: 8453, rpc: ['http://127.0.0.1:1'] }),
        ],
        overrides: { keyHeaders: ['X-Sim-Api-Key'] },
      })
    })
    afterAll(async () => {
      await api?.close()
      await t?.drop()
    })

    test('default: health answers with a request id', async () => {
      const r = await api.get('/health', { key: null })
      expect(r.status).toBe(200)
      expect(r.body).toEqual({ status: 'ok' })
      expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
      const echoed = await api.get('/health', { headers: { 'X-Request-Id': 'abc-123' } })
      expect(echoed.headers.get('x-request-id')).toBe('abc-123')
    })

    test('default: supported chains are public and cost nothing', async () => {
      const r = await api.get('/v1/evm/supported-chains', { key: null })
      expect(r.status).toBe(200)
      expect(r.headers.get('x-compute-units-cost')).toBe('0')
      expect(r.body.chains.map((c: { chain_id: number }) => c.chain_id)).toEqual([1, 8453])
      expect(r.body.chains[0]).toMatchObject({
        name: 'ethereum',
        tags: ['default', 'mainnet'],
        balances: { supported: true },
        defi_positions: { supported: true },
      })
    })

    test('default: status per chain', async () => {
      const r = await api.get('/v1/status')
      expect(r.status).toBe(200)
      expect(r.body.chains[0]).toEqual({
        chain_id: 1,
        name: 'ethereum',
        indexed_block: null,
        indexed_block_hash: null,
        node_head: null,
        lag_blocks: null,
        finalized_block: null,
        indexer: null,
        stopped: null,
        replica_lag_blocks: null,
      })
      expect(r.body.read_replica).toBeNull()
    })

    test('error: missing and unknown keys are 401', async () => {
      const missing = await api.get('/v1/status', {
        key: null,
      })
      expect([missing.status, missing.body]).toEqual([401, { error: 'missing API key' }])
      const wrong = await api.get('/v1/status', {
        key: 'scry_nope',
      })
      expect([wrong.status, wrong.body]).toEqual([401, { error: 'invalid API key' }])
    })

    test('behavior: a configured header alias carries the key', async () => {
      const r = await api.get('/metrics', { key: null, headers: { 'X-Sim-Api-Key': api.key } })
      expect(r.status).toBe(200)
      expect(r.body).toMatch(/scry_http_requests_total/)
    })

    test('error: unknown path is 404, wrong method 405', async () => {
      const r = await api.get('/v1/nope', { key: null })
      expect([r.status, r.body]).toEqual([
        404,
        { error: { message: 'No such path: /v1/nope.', code: 'NOT_FOUND' } },
      ])
      const res = await fetch(`${api.url}/v1/status`, { method: 'DELETE' })
      expect(res.status).toBe(405)
      expect(await res.json()).toEqual({
        error: {
          message: 'Method DELETE is not allowed on /v1/status.',
          code: 'METHOD_NOT_ALLOWED',
        },
      })
    })

    test('error: an oversized body is 413 on any path', async () => {
      const res = await fetch(`${api.url}/v1/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-Scry-Api-Key': api.key },
        body: 'x'.repeat(2 * 1024 * 1024),
      })
      expect(res.status).toBe(413)
      expect(await res.json()).toEqual({
        error: {
          message: 'The request body is larger than 262144 bytes.',
          code: 'PAYLOAD_TOO_LARGE',
        },
      })
    })

    test('behavior: charged compute units survive a restart', async () => {
      const { key, info } = await api.ctx.accounts.createKey({ name: 'metered', cuQuota: 5 })
      const r = await api.get(
        '/v1/evm/balances/0x0000000000000000000000000000000000000001?chain_ids=1,8453',
        { key },
      )
      expect([r.status, r.headers.get('x-compute-units-cost')]).toEqual([200, '2'])
      await api.ctx.meter.flush()
      // A new context over the same store, as after a restart: 3 left, so a 4-unit request fails.
      const again = await createTestApi({
        store: t.store,
        chains: [1, 8453, 10, 137].map((chainId) =>
          testChainConfig({ chainId, rpc: ['http://127.0.0.1:1'] }),
        ),
      })
      try {
        const over = await again.get(
          '/v1/evm/balances/0x0000000000000000000000000000000000000001?chain_ids=1,8453,10,137',
          { key },
        )
        expect([over.status, over.body]).toEqual([
          402,
          { error: 'This request would exceed your compute-unit quota' },
        ])
        const fits = await again.get(
          '/v1/evm/balances/0x0000000000000000000000000000000000000001?chain_ids=1,8453,10',
          { key },
        )
        expect(fits.status).toBe(200)
      } finally {
        await again.close()
      }
      const usage = await t.store.db
        .selectFrom('usage')
        .selectAll()
        .where('account_id', '=', info.accountId)
        .execute()
      expect(usage.map((u) => u.cu_used)).toEqual([5])
    })

    test('error: revoked key is 401; rate limit is 429 with Retry-After', async () => {
      const { key, info } = await api.ctx.accounts.createKey({ name: 'limited', rps: 2 })
      const statuses = []
      for (let i = 0; i < 5; i++) statuses.push(await api.get('/v1/status', { key }))
      const limited = statuses.find((r) => r.status === 429)
      expect(limited?.body).toEqual({
        error: expect.stringMatching(/^Too many requests\. This key allows 2 per second/),
      })
      expect(limited?.headers.get('retry-after')).toBe('1')
      expect(limited?.headers.get('x-ratelimit-limit')).toBe('2')
      expect(statuses[0]?.headers.get('x-ratelimit-remaining')).toBe('1')
      await api.ctx.accounts.revokeKey(info.id)
      expect((await api.get('/v1/status', { key })).status).toBe(401)
    })
  })
}

describe('API server HTTPS rule', () => {
  test('error: plain HTTP off loopback is refused unless a trusted proxy reports https', async () => {
    const t = await createTestStore('sqlite')
    const api = await createTestApi({
      store: t.store,
      chains: [],
      overrides: { https: { tls: false, loopback: false, trustProxy: true } },
    })
    try {
      const r = await api.get('/health')
      expect([r.status, r.body]).toEqual([
        400,
        { error: { message: 'This service only accepts HTTPS requests.', code: 'HTTPS_REQUIRED' } },
      ])
      const behind = async (proto: string) =>
        (await api.get('/health', { headers: { 'X-Forwarded-Proto': proto } })).status
      expect(await behind('https')).toBe(200)
      // Any case; the client's side first when proxies appended theirs.
      expect(await behind('HTTPS')).toBe(200)
      expect(await behind('https, http')).toBe(200)
      expect(await behind('http, https')).toBe(400)
    } finally {
      await api.close()
      await t.drop()
    }
  })
})

describe('API replicas with Redis', () => {
  test("behavior: two servers share a key's rate limit through redis://", async () => {
    const t = await createTestStore('postgres')
    const redisA = new Redis('redis://127.0.0.1:6379')
    const redisB = new Redis('redis://127.0.0.1:6379')
    const a = await createTestApi({ store: t.store, chains: [], overrides: { redis: redisA } })
    const b = await createTestApi({ store: t.store, chains: [], overrides: { redis: redisB } })
    try {
      // 3 requests on A and 3 on B within one second: a shared counter lets exactly 4 pass
      // (separate counters would let all 6). A batch that straddles a second boundary says
      // nothing, so it is tried again with a fresh key.
      let checked = false
      for (let attempt = 0; attempt < 10 && !checked; attempt++) {
        const { key } = await a.ctx.accounts.createKey({ name: `shared ${attempt}`, rps: 4 })
        const second = Math.floor(Date.now() / 1000)
        const statuses = await Promise.all(
          [a, a, a, b, b, b].map((api) => api.get('/v1/status', { key }).then((r) => r.status)),
        )
        if (Math.floor(Date.now() / 1000) !== second) continue
        expect(statuses.filter((s) => s === 200)).toHaveLength(4)
        expect(statuses.filter((s) => s === 429)).toHaveLength(2)
        checked = true
      }
      expect(checked, 'ten batches in a row straddled a second boundary').toBe(true)
    } finally {
      await a.close()
      await b.close()
      await t.drop()
    }
  })
})

test('error: a request that reaches a server while it shuts down gets the documented 503, with Retry-After and its request id', async () => {
  const t = await createTestStore('sqlite')
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  // A route that answers once released: it keeps the server closing while the next request,
  // sent behind it on the same connection once the close began, arrives.
  const slow: RouteModule = (app) => {
    app.get('/slow', { config: { public: true } }, async () => {
      await held
      return { ok: true }
    })
  }
  const api = await createTestApi({ store: t.store, chains: [], routes: [...API_ROUTES, slow] })
  try {
    const socket = connect(Number(new URL(api.url).port), '127.0.0.1')
    let text = ''
    socket.on('data', (chunk) => {
      text += chunk
    })
    const ended = new Promise((resolve) => socket.on('close', resolve))
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
    await new Promise((resolve) => setTimeout(resolve, 100))
    const closed = api.app.close()
    await new Promise((resolve) => setTimeout(resolve, 100))
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: late-1\r\n\r\n')
    await new Promise((resolve) => setTimeout(resolve, 100))
    release()
    await closed
    await ended
    const [, second] = text.split(/(?=HTTP\/1\.1 )/)
    expect(text).toMatch(/^HTTP\/1\.1 200 /)
    expect(second).toMatch(/^HTTP\/1\.1 503 /)
    expect(second).toMatch(/\r\nretry-after: 1\r\n/i)
    expect(second).toMatch(/\r\nx-request-id: late-1\r\n/i)
    const body = JSON.parse(second?.slice(second.indexOf('\r\n\r\n') + 4) ?? '')
    expect(body).toEqual({
      error: { code: 'UNAVAILABLE', message: expect.stringMatching(/shutting down/) },
    })
  } finally {
    release()
    await api.close().catch(() => {})
    await t.drop()
  }
})
