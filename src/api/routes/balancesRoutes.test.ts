import { type Address, createPublicClient, erc20Abi, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createIndexedWorld, type IndexedWorld } from '../../../test/support/createIndexedWorld.ts'
import { createTestApi, type TestApi } from '../../../test/support/createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from '../../../test/support/createTestStore.ts'
import { testChainConfig } from '../../../test/support/testChain.ts'
import { stablecoinRegistry } from '../../chains/stablecoins.ts'
import { balancesRoutes } from './balancesRoutes.ts'
import { systemRoutes } from './systemRoutes.ts'

type Row = {
  chain: string
  chain_id: number
  address: string
  symbol?: string
  name?: string
  amount: string
  decimals?: number
}

/** `request_time` / `response_time` of an answer (RFC 3339 with milliseconds). */
const TIME = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/)
const TIMES = { request_time: TIME, response_time: TIME }

const STRANGER = '0x00000000000000000000000000000000000000aa'
const UNKNOWN_TOKEN = '0x1111111111111111111111111111111111111111'
const QUOTA_ERROR = { error: 'This request would exceed your compute-unit quota' }

let indexed: IndexedWorld
let client: PublicClient
/** Node answers at the world's end block, by `${wallet}:${asset}`. */
const nodeCache = new Map<string, Promise<bigint>>()

function nodeBalance(wallet: string, asset: string): Promise<bigint> {
  const key = `${wallet}:${asset}`
  let value = nodeCache.get(key)
  if (!value) {
    const blockNumber = indexed.world.endBlock
    value =
      asset === 'native'
        ? client.getBalance({ address: wallet as Address, blockNumber })
        : client.readContract({
            address: asset as Address,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [wallet as Address],
            blockNumber,
          })
    nodeCache.set(key, value)
  }
  return value
}

function sortKey(row: Row): string {
  return `${String(row.chain_id).padStart(12, '0')}:${row.address === 'native' ? '' : row.address}`
}

beforeAll(async () => {
  indexed = await createIndexedWorld({ chainId: 1, transfers: 800, wallets: 40 })
  client = createPublicClient({
    transport: http(indexed.anvil.rpcUrl, { batch: { batchSize: 200 } }),
  }) as PublicClient
})
afterAll(async () => {
  await indexed?.stop()
})

for (const dialect of DIALECTS) {
  describe(`balances routes (${dialect})`, () => {
    let t: TestStore
    let api: TestApi
    let dusd: string
    /** Every wallet's full list (chain 1, default limit), fetched once. */
    const lists = new Map<string, Row[]>()

    beforeAll(async () => {
      t = await createTestStore(dialect)
      await indexed.indexInto(t.store)
      dusd = indexed.world.tokens.find((tk) => tk.symbol === 'DUSD')!.address.toLowerCase()
      api = await createTestApi({
        store: t.store,
        // The dev world's dollar is not at a mainnet address: the chain's `stablecoins`
        // setting adds it, as an operator's config would.
        chains: [
          testChainConfig({
            chainId: 1,
            rpc: [indexed.anvil.rpcUrl],
            stablecoins: [dusd as `0x${string}`],
          }),
        ],
        routes: [systemRoutes, balancesRoutes],
      })
      for (const wallet of indexed.world.wallets) {
        const r = await api.get(`/v1/evm/balances/${wallet}?chain_ids=1`)
        expect(r.status).toBe(200)
        expect(r.body.next_offset).toBeUndefined()
        lists.set(wallet, r.body.balances)
      }
    })
    afterAll(async () => {
      await api?.close()
      await t?.drop()
    })

    /** The wallet with the most rows, for paging. */
    const richest = () =>
      [...lists.entries()].sort((a, b) => b[1].length - a[1].length)[0]![0] as string

    test('default: every row equals the node and every non-zero balance is listed', async () => {
      let rows = 0
      for (const wallet of indexed.world.wallets) {
        const list = lists.get(wallet)!
        for (const row of list) {
          expect(BigInt(row.amount)).toBe(await nodeBalance(wallet, row.address))
          expect(row.amount).not.toBe('0')
          expect(row.chain_id).toBe(1)
          expect(row.chain).toBe('ethereum')
        }
        rows += list.length
        expect(list.map(sortKey)).toEqual(list.map(sortKey).sort())
        expect(new Set(list.map((r) => r.address)).size).toBe(list.length)

        const listed = new Set(list.map((r) => r.address))
        const native = await nodeBalance(wallet, 'native')
        expect(listed.has('native')).toBe(native > 0n)
        for (const token of indexed.world.tokens) {
          const address = token.address.toLowerCase()
          const balance = await nodeBalance(wallet, address)
          expect(listed.has(address), `${wallet} ${token.symbol}`).toBe(balance > 0n)
          const row = list.find((r) => r.address === address)
          if (row && token.symbol !== undefined) expect(row.symbol).toBe(token.symbol)
          if (row) expect(row.decimals).toBe(token.decimals)
        }
      }
      expect(rows).toBeGreaterThan(indexed.world.wallets.length * 3)
    })

    test('default: the native row and a token row', async () => {
      const wallet = richest()
      const list = lists.get(wallet)!
      expect(list[0]).toEqual({
        chain: 'ethereum',
        chain_id: 1,
        address: 'native',
        symbol: 'ETH',
        name: 'Ether',
        amount: (await nodeBalance(wallet, 'native')).toString(),
        decimals: 18,
      })
      const dusdRow = list.find((r) => r.address === dusd)
      if (dusdRow)
        expect(dusdRow).toEqual({
          chain: 'ethereum',
          chain_id: 1,
          address: dusd,
          symbol: 'DUSD',
          name: 'Demo Dollar',
          amount: (await nodeBalance(wallet, dusd)).toString(),
          decimals: 6,
        })
    })

    test('behavior: paging walks every row exactly once', async () => {
      for (const wallet of [richest(), indexed.world.wallets[1]!]) {
        const full = lists.get(wallet)!
        for (const limit of [1, 2, 7, 1000]) {
          const seen: Row[] = []
          let offset: string | undefined
          let pages = 0
          do {
            const query = `chain_ids=1&limit=${limit}${offset ? `&offset=${offset}` : ''}`
            const r = await api.get(`/v1/evm/balances/${wallet}?${query}`)
            expect(r.status).toBe(200)
            expect(r.body.warnings).toBeUndefined()
            expect(r.body.balances.length).toBeLessThanOrEqual(limit)
            seen.push(...r.body.balances)
            offset = r.body.next_offset
            pages++
          } while (offset !== undefined)
          expect(seen).toEqual(full)
          expect(pages).toBe(Math.max(1, Math.ceil(full.length / limit)))
        }
      }
    })

    test('behavior: paging a filtered list', async () => {
      const wallet = richest()
      const tokens = lists.get(wallet)!.filter((r) => r.address !== 'native')
      const seen: Row[] = []
      let offset: string | undefined
      do {
        const query = `filter_type=erc20&limit=2${offset ? `&offset=${offset}` : ''}`
        const r = await api.get(`/v1/evm/balances/${wallet}?${query}`)
        seen.push(...r.body.balances)
        offset = r.body.next_offset
      } while (offset !== undefined)
      expect(seen).toEqual(tokens)
    })

    test('args: filter_type, filters, exclude_spam_tokens, metadata, historical_prices', async () => {
      const wallet = richest()
      const full = lists.get(wallet)!
      const get = async (query: string) => {
        const r = await api.get(`/v1/evm/balances/${wallet}?${query}`)
        expect(r.status, query).toBe(200)
        return r.body.balances as Row[]
      }
      const natives = full.filter((r) => r.address === 'native')
      const tokens = full.filter((r) => r.address !== 'native')
      expect(natives).toHaveLength(1)
      expect(await get('filter_type=native')).toEqual(natives)
      expect(await get('filters=native')).toEqual(natives)
      expect(await get('filter_type=erc20')).toEqual(tokens)
      expect(await get('filters=erc20&filter_type=erc20')).toEqual(tokens)
      // No DEX factory is configured for this world: no token has a price (so no pool_size),
      // and every token counts as spam.
      expect(await get('exclude_spam_tokens')).toEqual(natives)
      expect(await get('exclude_spam_tokens=true')).toEqual(natives)
      expect(await get('exclude_spam_tokens=false')).toEqual(full)
      expect(await get('exclude_spam_tokens&filter_type=erc20')).toEqual([])
      expect(await get('metadata=logo,url,pools')).toEqual(full)
      expect(await get('metadata=pools')).toEqual(full)
      const withHistory = full.map((r) => ({ ...r, historical_prices: [] }))
      expect(await get('historical_prices=1,24,168')).toEqual(withHistory)
      expect(await get('historical_prices=01')).toEqual(withHistory)
      expect((await api.get(`/v1/evm/balances/${wallet}?historical_prices=0`)).status).toBe(400)
      // Unpriced rows carry no price field.
      const allowed = new Set([
        'historical_prices',
        'chain',
        'chain_id',
        'address',
        'symbol',
        'name',
        'amount',
        'decimals',
      ])
      for (const row of await get('historical_prices=24&metadata=logo'))
        for (const key of Object.keys(row)) expect(allowed.has(key), key).toBe(true)
    })

    test('behavior: stablecoins lists only registered stablecoins', async () => {
      let withDusd = 0
      for (const wallet of indexed.world.wallets) {
        const expected = lists.get(wallet)!.filter((r) => r.address === dusd)
        const r = await api.get(`/v1/evm/balances/${wallet}/stablecoins?chain_ids=1`)
        expect(r.status).toBe(200)
        expect(r.headers.get('x-compute-units-cost')).toBe('1')
        expect(r.body).toEqual({ wallet_address: wallet, balances: expected, ...TIMES })
        const viaFilter = await api.get(`/v1/evm/balances/${wallet}?asset_class=stablecoin`)
        expect(viaFilter.body.balances).toEqual(expected)
        if (expected.length > 0) {
          expect(BigInt(expected[0]!.amount)).toBe(await nodeBalance(wallet, dusd))
          withDusd++
        }
      }
      expect(withDusd).toBeGreaterThan(0)
      // Without the extension the shipped (mainnet) registry has none of the world's tokens.
      const ctx = api.ctx
      const registry = ctx.stablecoins
      ctx.stablecoins = stablecoinRegistry()
      try {
        const r = await api.get(`/v1/evm/balances/${richest()}/stablecoins`)
        expect(r.body.balances).toEqual([])
      } finally {
        ctx.stablecoins = registry
      }
    })

    test('behavior: stablecoins pages, with natives where the registry lists them', async () => {
      // A wider registry (the native asset counts, as xDAI does on Gnosis) to have pages.
      const ctx = api.ctx
      const registry = ctx.stablecoins
      const picked = indexed.world.tokens
        .filter((tk) => ['DUSD', 'DBTC', 'DGOV', 'WETH', 'rDEMO'].includes(tk.symbol ?? ''))
        .map((tk) => tk.address.toLowerCase())
      ctx.stablecoins = stablecoinRegistry([
        { chainId: 1, address: 'native', symbol: 'ETH', peg: 'USD' },
        ...picked.map((address) => ({
          chainId: 1,
          address: address as `0x${string}`,
          symbol: 'X',
          peg: 'USD' as const,
        })),
      ])
      try {
        const wallet = richest()
        const expected = lists
          .get(wallet)!
          .filter((r) => r.address === 'native' || picked.includes(r.address))
        expect(expected.length).toBeGreaterThan(2)
        for (const limit of [1, 2]) {
          const seen: Row[] = []
          let offset: string | undefined
          do {
            const query = `limit=${limit}${offset ? `&offset=${offset}` : ''}`
            const r = await api.get(`/v1/evm/balances/${wallet}/stablecoins?${query}`)
            expect(r.body.warnings).toBeUndefined()
            seen.push(...r.body.balances)
            offset = r.body.next_offset
          } while (offset !== undefined)
          expect(seen).toEqual(expected)
        }
      } finally {
        if (registry) ctx.stablecoins = registry
      }
    })

    test('default: single token, native and zero balances equal the node', async () => {
      const wallet = richest()
      const native = await api.get(`/v1/evm/balances/${wallet}/token/native?chain_ids=1`)
      expect(native.status).toBe(200)
      expect(native.headers.get('x-compute-units-cost')).toBe('1')
      expect(native.body).toEqual({
        wallet_address: wallet,
        balances: [lists.get(wallet)!.find((r) => r.address === 'native')],
        ...TIMES,
      })
      for (const token of indexed.world.tokens) {
        const address = token.address.toLowerCase()
        // Any case is accepted; the answer is lowercase.
        const r = await api.get(
          `/v1/evm/balances/${wallet.toUpperCase().replace('0X', '0x')}/token/${token.address}?chain_ids=1`,
        )
        expect(r.status).toBe(200)
        expect(r.body.wallet_address).toBe(wallet)
        expect(r.body.balances).toHaveLength(1)
        expect(r.body.balances[0].address).toBe(address)
        expect(BigInt(r.body.balances[0].amount)).toBe(await nodeBalance(wallet, address))
      }
      const zero = await api.get(`/v1/evm/balances/${STRANGER}/token/${dusd}?chain_ids=1`)
      expect(zero.body).toEqual({
        wallet_address: STRANGER,
        balances: [
          {
            chain: 'ethereum',
            chain_id: 1,
            address: dusd,
            symbol: 'DUSD',
            name: 'Demo Dollar',
            amount: '0',
            decimals: 6,
          },
        ],
        ...TIMES,
      })
      const zeroNative = await api.get(`/v1/evm/balances/${STRANGER}/token/native?chain_ids=1`)
      expect(zeroNative.body.balances[0]).toMatchObject({ address: 'native', amount: '0' })
    })

    test('error: single token unknown on the chain is 404', async () => {
      for (const token of [UNKNOWN_TOKEN, indexed.world.nfts[0]!.address]) {
        const r = await api.get(`/v1/evm/balances/${richest()}/token/${token}?chain_ids=1`)
        expect([r.status, r.body]).toEqual([
          404,
          {
            error: {
              message: `No ERC20 token ${token.toLowerCase()} is known on chain 1.`,
              code: 'NOT_FOUND',
            },
          },
        ])
      }
    })

    test('error: single token needs exactly one numeric chain id', async () => {
      const path = `/v1/evm/balances/${richest()}/token/native`
      const missing = await api.get(path)
      expect([missing.status, missing.body]).toEqual([
        400,
        {
          error: {
            message:
              "Invalid querystring parameter chain_ids: must have required property 'chain_ids'.",
            code: 'BAD_REQUEST',
          },
        },
      ])
      for (const value of ['1,10', 'mainnet', 'ethereum', '', '1.5', '-1', '٣', '9'.repeat(30)]) {
        const r = await api.get(`${path}?chain_ids=${encodeURIComponent(value)}`)
        expect([r.status, r.body], value).toEqual([
          400,
          {
            error: {
              message:
                'Invalid chain_ids: this endpoint takes exactly one numeric chain id (no list, tag or chain name).',
              code: 'BAD_REQUEST',
            },
          },
        ])
      }
      const unsupported = await api.get(`${path}?chain_ids=10`)
      expect(unsupported.status).toBe(200)
      expect(unsupported.body).toEqual({
        wallet_address: richest(),
        balances: [],
        warnings: [
          {
            code: 'UNSUPPORTED_CHAIN_IDS',
            message: 'These chain ids are not supported here for this endpoint: 10.',
            chain_ids: [10],
          },
        ],
        ...TIMES,
      })
    })

    test('behavior: unsupported chain ids are a warning next to the data', async () => {
      const wallet = richest()
      for (const path of [`/v1/evm/balances/${wallet}`, `/v1/evm/balances/${wallet}/stablecoins`]) {
        const r = await api.get(`${path}?chain_ids=1,10,mainnet`)
        expect(r.status).toBe(200)
        expect(r.headers.get('x-compute-units-cost')).toBe('1')
        expect(r.body.warnings).toEqual([
          {
            code: 'UNSUPPORTED_CHAIN_IDS',
            message: 'These chain ids are not supported here for this endpoint: 10.',
            chain_ids: [10],
          },
        ])
      }
      const r = await api.get(`/v1/evm/balances/${wallet}?chain_ids=1,10`)
      expect(r.body.balances).toEqual(lists.get(wallet))
      const none = await api.get(`/v1/evm/balances/${wallet}?chain_ids=10`)
      expect(none.status).toBe(200)
      expect(none.headers.get('x-compute-units-cost')).toBe('0')
      expect(none.body.balances).toEqual([])
    })

    test('behavior: an offset not issued for the query gives the first page and a warning', async () => {
      const wallet = richest()
      const first = await api.get(`/v1/evm/balances/${wallet}?limit=2`)
      const offset = first.body.next_offset as string
      expect(offset).toBeTypeOf('string')
      const edited = `${offset.slice(0, -2)}${offset.endsWith('AA') ? 'BB' : 'AA'}`
      const other = await api.get(`/v1/evm/balances/${wallet}?limit=2&filter_type=erc20`)
      for (const [path, bad] of [
        [`/v1/evm/balances/${wallet}?limit=2`, edited],
        [`/v1/evm/balances/${wallet}?limit=2`, 'made-up'],
        [`/v1/evm/balances/${wallet}?limit=2`, other.body.next_offset],
        [`/v1/evm/balances/${indexed.world.wallets[1]}?limit=2`, offset],
        [`/v1/evm/balances/${wallet}/stablecoins?limit=2`, offset],
      ] as const) {
        const r = await api.get(`${path}&offset=${encodeURIComponent(bad)}`)
        expect(r.status).toBe(200)
        expect(r.body.warnings).toEqual([
          {
            code: 'INVALID_OFFSET',
            message: 'The offset was not issued for this query; the first page is returned.',
          },
        ])
        expect(r.body.balances.length).toBeLessThanOrEqual(2)
      }
      const again = await api.get(`/v1/evm/balances/${wallet}?limit=2&offset=${edited}`)
      expect(again.body.balances).toEqual(first.body.balances)
      // The limit is not part of the query a cursor is bound to.
      const wider = await api.get(`/v1/evm/balances/${wallet}?limit=5&offset=${offset}`)
      expect(wider.body.warnings).toBeUndefined()
      expect(wider.body.balances).toEqual(lists.get(wallet)!.slice(2, 7))
    })

    test('behavior: compute units are 1 per chain; a short quota is 402', async () => {
      const wallet = richest()
      const r = await api.get(`/v1/evm/balances/${wallet}`)
      expect(r.headers.get('x-compute-units-cost')).toBe('1')
      const { key } = await api.ctx.accounts.createKey({ name: 'broke', cuQuota: 0 })
      for (const path of [
        `/v1/evm/balances/${wallet}`,
        `/v1/evm/balances/${wallet}/stablecoins`,
        `/v1/evm/balances/${wallet}/token/native?chain_ids=1`,
      ]) {
        const refused = await api.get(path, { key })
        expect([refused.status, refused.body]).toEqual([402, QUOTA_ERROR])
      }
      const missingKey = await api.get(`/v1/evm/balances/${wallet}`, { key: null })
      expect(missingKey.status).toBe(401)
    })

    test('error: bad parameters are 400', async () => {
      const wallet = richest()
      const cases: [string, string][] = [
        [`/v1/evm/balances/0x1234`, 'params'],
        [`/v1/evm/balances/${wallet.slice(0, -1)}é`, 'params'],
        [`/v1/evm/balances/${wallet}${'0'.repeat(400)}`, 'params'],
        [`/v1/evm/balances/${wallet}/token/0xabc?chain_ids=1`, 'params'],
        [`/v1/evm/balances/${wallet}/token/NATIVE?chain_ids=1`, 'params'],
        [`/v1/evm/balances/${wallet}?limit=0`, 'limit'],
        [`/v1/evm/balances/${wallet}?limit=-1`, 'limit'],
        [`/v1/evm/balances/${wallet}?limit=abc`, 'limit'],
        [`/v1/evm/balances/${wallet}?limit=1.5`, 'limit'],
        [`/v1/evm/balances/${wallet}/stablecoins?limit=0`, 'limit'],
        [`/v1/evm/balances/${wallet}?chain_ids=ethereum`, 'chain_ids'],
        [`/v1/evm/balances/${wallet}?chain_ids=1,solana`, 'chain_ids'],
        [`/v1/evm/balances/${wallet}/stablecoins?chain_ids=🚀`, 'chain_ids'],
        [`/v1/evm/balances/${wallet}?filter_type=nft`, 'filter_type'],
        [`/v1/evm/balances/${wallet}?filters=erc721`, 'filters'],
        [`/v1/evm/balances/${wallet}?filter_type=erc20&filters=native`, 'filter_type'],
        [`/v1/evm/balances/${wallet}?asset_class=meme`, 'asset_class'],
        [`/v1/evm/balances/${wallet}?metadata=logo,foo`, 'metadata'],
        [`/v1/evm/balances/${wallet}?exclude_spam_tokens=yes`, 'exclude_spam_tokens'],
        [`/v1/evm/balances/${wallet}?historical_prices=1,2,3,4`, 'historical_prices'],
        [`/v1/evm/balances/${wallet}?historical_prices=-1`, 'historical_prices'],
        [`/v1/evm/balances/${wallet}?historical_prices=abc`, 'historical_prices'],
        [`/v1/evm/balances/${wallet}?historical_prices=`, 'historical_prices'],
        [`/v1/evm/balances/${wallet}?historical_prices=1e3`, 'historical_prices'],
        [`/v1/evm/balances/${wallet}?offset=${'a'.repeat(5000)}`, 'offset'],
      ]
      for (const [path, field] of cases) {
        const r = await api.get(path)
        expect(r.status, path).toBe(400)
        expect(r.body.error.code, path).toBe('BAD_REQUEST')
        expect(r.body.error.message, path).toContain(field)
      }
      const ok = await api.get(`/v1/evm/balances/${wallet}?limit=${'9'.repeat(30)}`)
      expect(ok.status).toBe(200)
      expect(ok.body.balances).toEqual(lists.get(wallet))
    })

    test('behavior: messages of a few 400s', async () => {
      const wallet = richest()
      const metadata = await api.get(`/v1/evm/balances/${wallet}?metadata=logo,foo`)
      expect(metadata.body).toEqual({
        error: {
          message: 'Invalid metadata: "foo" is not one of logo, url, pools.',
          code: 'BAD_REQUEST',
        },
      })
      const hours = await api.get(`/v1/evm/balances/${wallet}?historical_prices=1,2,3,4`)
      expect(hours.body).toEqual({
        error: {
          message:
            'Invalid historical_prices: expected 1 to 3 comma-separated whole numbers of hours (1 or more).',
          code: 'BAD_REQUEST',
        },
      })
      const both = await api.get(`/v1/evm/balances/${wallet}?filter_type=erc20&filters=native`)
      expect(both.body).toEqual({
        error: {
          message:
            'Invalid filter_type: filter_type and its alias filters disagree; give one of them.',
          code: 'BAD_REQUEST',
        },
      })
    })
  })
}
