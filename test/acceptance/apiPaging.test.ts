import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { RouteModule } from '../../src/api/createApiServer.ts'
import { API_ROUTES } from '../../src/api/routes/apiRoutes.ts'
import { stablecoinRegistry } from '../../src/chains/stablecoins.ts'
import { createIndexedWorld, type IndexedWorld } from '../support/createIndexedWorld.ts'
import { createTestApi, type TestApi } from '../support/createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from '../support/createTestStore.ts'
import { testChainConfig } from '../support/testChain.ts'

/**
 * Walking every page of every list endpoint with limit 1, 2, 7 and the maximum returns each
 * row exactly once, in the same order, and the same rows as one page at the maximum; and
 * /openapi.json describes every route with its parameters.
 */

type Item = Record<string, any>
type ListEndpoint = {
  name: string
  /** Path and query without limit/offset, for one subject (wallet or token). */
  path: (subject: string) => string
  list: string
  max: number
  /** A stable identity for a row; `undefined` when rows have none (compare whole rows). */
  key?: (item: Item) => string
  /** Token holders answer `next_offset: null` on the last page; the others omit it. */
  lastOffset: 'absent' | 'null'
}

const ENDPOINTS: ListEndpoint[] = [
  {
    name: 'balances',
    path: (w) => `/v1/evm/balances/${w}?chain_ids=1`,
    list: 'balances',
    max: 1000,
    key: (i) => `${i.chain_id}:${i.address}`,
    lastOffset: 'absent',
  },
  {
    name: 'stablecoins',
    path: (w) => `/v1/evm/balances/${w}/stablecoins?chain_ids=1`,
    list: 'balances',
    max: 1000,
    key: (i) => `${i.chain_id}:${i.address}`,
    lastOffset: 'absent',
  },
  {
    name: 'activity',
    path: (w) => `/v1/evm/activity/${w}?chain_ids=1`,
    list: 'activity',
    max: 100,
    // Items carry no sequence number: two equal transfers in one transaction are equal rows.
    lastOffset: 'absent',
  },
  {
    name: 'transactions',
    path: (w) => `/v1/evm/transactions/${w}?chain_ids=1`,
    list: 'transactions',
    max: 100,
    key: (i) => `${i.chain_id}:${i.hash}`,
    lastOffset: 'absent',
  },
  {
    name: 'collectibles',
    path: (w) => `/v1/evm/collectibles/${w}?chain_ids=1&filter_spam=false`,
    list: 'collectibles',
    max: 500,
    key: (i) => `${i.chain_id}:${i.contract_address}:${i.token_id}`,
    lastOffset: 'absent',
  },
  {
    name: 'token holders',
    path: (token) => `/v1/evm/token-holders/1/${token}?`,
    list: 'holders',
    max: 500,
    key: (i) => i.wallet_address,
    lastOffset: 'null',
  },
]

const LIMITS = [1, 2, 7] as const

let indexed: IndexedWorld
beforeAll(async () => {
  indexed = await createIndexedWorld({ chainId: 1, transfers: 600, wallets: 20 })
})
afterAll(async () => {
  await indexed?.stop()
})

for (const dialect of DIALECTS) {
  describe(`paging (${dialect})`, () => {
    let t: TestStore
    let api: TestApi
    const subjects = new Map<string, string[]>()
    /** Routes the route modules registered (every route the API serves). */
    const routes: string[] = []

    beforeAll(async () => {
      t = await createTestStore(dialect)
      await indexed.indexInto(t.store)
      api = await createTestApi({
        store: t.store,
        chains: [testChainConfig({ chainId: 1, rpc: [indexed.anvil.rpcUrl] })],
        routes: [collectRoutes(routes), ...API_ROUTES],
      })
      // The dev world's dollar is not at a mainnet address: register it as config would.
      const dusd = indexed.world.tokens.find((tk) => tk.symbol === 'DUSD')
      if (dusd)
        api.ctx.stablecoins = stablecoinRegistry([
          { chainId: 1, address: dusd.address, symbol: 'DUSD', peg: 'USD' },
        ])

      // The three wallets with the most transactions, and the three tokens with most holders.
      const counts: [string, number][] = []
      for (const wallet of indexed.world.wallets) {
        const all = await walk(`/v1/evm/transactions/${wallet}?chain_ids=1`, 'transactions', 100)
        counts.push([wallet.toLowerCase(), all.items.length])
      }
      const wallets = counts
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([w]) => w)
      // Also the wallet holding the most NFTs, so that collectibles page.
      const nftCounts: [string, number][] = []
      for (const wallet of indexed.world.wallets) {
        const r = await api.get(
          `/v1/evm/collectibles/${wallet}?chain_ids=1&filter_spam=false&limit=500`,
        )
        nftCounts.push([wallet.toLowerCase(), r.body.collectibles.length])
      }
      const nftWallet = nftCounts.sort((a, b) => b[1] - a[1])[0]?.[0]
      const walletSubjects = [...new Set([...wallets, ...(nftWallet ? [nftWallet] : [])])]
      const holderCounts: [string, number][] = []
      for (const token of indexed.world.tokens) {
        const all = await walk(`/v1/evm/token-holders/1/${token.address}?`, 'holders', 500)
        holderCounts.push([token.address.toLowerCase(), all.items.length])
      }
      const tokens = holderCounts
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([a]) => a)
      for (const e of ENDPOINTS)
        subjects.set(e.name, e.name === 'token holders' ? tokens : walletSubjects)
    })
    afterAll(async () => {
      await api?.close()
      await t?.drop()
    })

    /** Follows next_offset to the end; checks every page's size and the last page's marker. */
    async function walk(path: string, list: string, limit: number | undefined) {
      const items: Item[] = []
      const pageSizes: number[] = []
      let offset: string | undefined
      for (let page = 0; page < 5000; page++) {
        const parts = [
          ...(limit === undefined ? [] : [`limit=${limit}`]),
          ...(offset === undefined ? [] : [`offset=${encodeURIComponent(offset)}`]),
        ]
        const sep = path.endsWith('?') ? '' : '&'
        const r = await api.get(parts.length > 0 ? `${path}${sep}${parts.join('&')}` : path)
        expect(r.status, `${path} page ${page}`).toBe(200)
        expect(r.body.warnings ?? [], path).toEqual([])
        const rows = r.body[list] as Item[]
        items.push(...rows)
        pageSizes.push(rows.length)
        const next = r.body.next_offset
        if (next === undefined || next === null) return { items, pageSizes, last: r.body }
        expect(typeof next).toBe('string')
        offset = next
      }
      throw new Error(`${path}: more than 5000 pages`)
    }

    for (const e of ENDPOINTS) {
      test(`behavior: ${e.name} pages return every row exactly once at limits 1, 2, 7 and ${e.max}`, async () => {
        let total = 0
        for (const subject of subjects.get(e.name) ?? []) {
          const path = e.path(subject)
          const whole = await walk(path, e.list, e.max)
          const unpaged = await walk(path, e.list, undefined)
          expect(unpaged.items, `${e.name} default limit`).toEqual(whole.items)
          const ids = whole.items.map((i) => (e.key ? e.key(i) : JSON.stringify(i)))
          if (e.key) expect(new Set(ids).size, `${e.name} ${subject} unique keys`).toBe(ids.length)
          if (whole.pageSizes.length === 1) expect(whole.items.length).toBeLessThanOrEqual(e.max)
          for (const limit of LIMITS) {
            const paged = await walk(path, e.list, limit)
            const label = `${e.name} ${subject} limit ${limit}`
            // Full pages until the last, which holds the rest: nothing skipped or repeated.
            const sizes = paged.pageSizes
            expect(
              sizes.slice(0, -1).every((n) => n === limit),
              label,
            ).toBe(true)
            expect(sizes.at(-1) ?? 0, label).toBeLessThanOrEqual(limit)
            if (sizes.length > 1) expect(sizes.at(-1), label).toBeGreaterThan(0)
            const pagedIds = paged.items.map((i) => (e.key ? e.key(i) : JSON.stringify(i)))
            if (e.key) expect(new Set(pagedIds).size, label).toBe(pagedIds.length)
            expect(pagedIds, label).toEqual(ids)
            expect(paged.items, label).toEqual(whole.items)
            if (e.lastOffset === 'null') expect(paged.last.next_offset, label).toBeNull()
            else expect('next_offset' in paged.last, label).toBe(false)
          }
          total += whole.items.length
        }
        console.info(
          `${dialect} ${e.name}: ${total} rows over ${subjects.get(e.name)?.length} subjects`,
        )
        if (e.name !== 'stablecoins') expect(total).toBeGreaterThan(2 * 7)
      })
    }

    test('behavior: activity and transactions are newest first across pages', async () => {
      for (const wallet of subjects.get('activity') ?? []) {
        const activity = await walk(`/v1/evm/activity/${wallet}?chain_ids=1`, 'activity', 7)
        const blocks = activity.items.map((i) => i.block_number as number)
        expect(blocks).toEqual([...blocks].sort((a, b) => b - a))
        const txs = await walk(`/v1/evm/transactions/${wallet}?chain_ids=1`, 'transactions', 7)
        const order = txs.items.map((i) => [Number(i.block_number), Number(i.index)])
        const sorted = [...order].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]!)
        expect(order).toEqual(sorted)
      }
    })

    test('behavior: token holders are ordered by balance, ties by address', async () => {
      for (const token of subjects.get('token holders') ?? []) {
        const all = await walk(`/v1/evm/token-holders/1/${token}?`, 'holders', 2)
        const rows = all.items.map((h) => [BigInt(h.balance), h.wallet_address as string] as const)
        const sorted = [...rows].sort((a, b) =>
          a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] > b[0] ? -1 : 1,
        )
        expect(rows).toEqual(sorted)
        for (const [balance] of rows) expect(balance > 0n).toBe(true)
      }
    })

    if (dialect === 'sqlite')
      test('default: /openapi.json is OpenAPI 3 and lists every route with its parameters', async () => {
        const r = await api.get('/openapi.json', { key: null })
        expect(r.status).toBe(200)
        expect(r.body.openapi).toMatch(/^3\./)
        expect(r.body.info?.title).toBeTypeOf('string')
        const documented = new Map<string, Set<string>>()
        for (const [path, item] of Object.entries(r.body.paths as Record<string, any>)) {
          const express = path.replace(/\{(\w+)\}/g, ':$1')
          const params = new Set<string>(
            (item.get?.parameters ?? []).map(
              (p: { in: string; name: string }) => `${p.in}:${p.name}`,
            ),
          )
          documented.set(express, params)
        }
        const registered = [...new Set(routes)]
        const hidden = new Set(['/health', '/ready'])
        const expected = registered.filter((p) => !hidden.has(p) && !p.startsWith('/docs'))
        expect([...documented.keys()].sort()).toEqual(expected.sort())

        const params: Record<string, string[]> = {
          '/v1/evm/balances/:address': [
            'path:address',
            'query:chain_ids',
            'query:filter_type',
            'query:filters',
            'query:asset_class',
            'query:metadata',
            'query:exclude_spam_tokens',
            'query:historical_prices',
            'query:block_number',
            'query:at',
            'query:offset',
            'query:limit',
          ],
          '/v1/evm/balances/:address/stablecoins': [
            'path:address',
            'query:chain_ids',
            'query:offset',
            'query:limit',
          ],
          '/v1/evm/balances/:address/token/:token_address': [
            'path:address',
            'path:token_address',
            'query:chain_ids',
            'query:block_number',
            'query:at',
          ],
          '/v1/evm/activity/:address': [
            'path:address',
            'query:chain_ids',
            'query:activity_type',
            'query:asset_type',
            'query:token_address',
            'query:offset',
            'query:limit',
          ],
          '/v1/evm/transactions/:address': [
            'path:address',
            'query:chain_ids',
            'query:decode',
            'query:offset',
            'query:limit',
          ],
          '/v1/evm/collectibles/:address': [
            'path:address',
            'query:chain_ids',
            'query:filter_spam',
            'query:show_spam_scores',
            'query:offset',
            'query:limit',
          ],
          '/v1/evm/token-info/:address': [
            'path:address',
            'query:chain_ids',
            'query:historical_prices',
            'query:limit',
            'query:offset',
          ],
          '/v1/evm/token-holders/:chain_id/:address': [
            'path:chain_id',
            'path:address',
            'query:limit',
            'query:offset',
          ],
          '/v1/evm/search/tokens': ['query:query', 'query:chain_ids', 'query:limit'],
          '/v1/evm/approvals/:address': [
            'path:address',
            'query:chain_ids',
            'query:offset',
            'query:limit',
          ],
          '/v1/evm/supported-chains': [],
          '/v1/status': [],
        }
        for (const [path, names] of Object.entries(params)) {
          expect([...(documented.get(path) ?? new Set(['missing']))].sort(), path).toEqual(
            [...names].sort(),
          )
        }
        // Every documented operation has a 2xx response.
        for (const [path, item] of Object.entries(r.body.paths as Record<string, any>)) {
          for (const [method, op] of Object.entries(item as Record<string, any>)) {
            const success = Object.keys(op.responses ?? {}).filter((k) => k.startsWith('2'))
            expect(success.length, `${method} ${path}`).toBeGreaterThan(0)
          }
        }
      })
  })
}

/** Records the routes (any method but HEAD) that the route modules after it register. */
function collectRoutes(into: string[]): RouteModule {
  return (app) => {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method]
      if (methods.some((m) => m !== 'HEAD')) into.push(route.url)
    })
  }
}
