import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createPublicClient, erc721Abi, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createIndexedWorld, type IndexedWorld } from '../../../test/support/createIndexedWorld.ts'
import { createTestApi, type TestApi } from '../../../test/support/createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from '../../../test/support/createTestStore.ts'
import { localOnlyLookup } from '../../../test/support/localOnlyLookup.ts'
import { testChainConfig } from '../../../test/support/testChain.ts'
import { createRpcClient } from '../../evm/rpc/createRpcClient.ts'
import { silentLogger } from '../../internal/logger.ts'
import { createNftMetadataWorker } from '../../nft/createNftMetadataWorker.ts'
import { collectiblesRoutes } from './collectiblesRoutes.ts'
import { systemRoutes } from './systemRoutes.ts'

// Collectibles on an indexed demo world, checked against ownerOf/balanceOf at the world's
// last block, with metadata loaded by the worker (ipfs:// through a local gateway).
const CHAIN_ID = 1
const erc1155Abi = [
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [
      { name: 'account', type: 'address' },
      { name: 'id', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const

let w: IndexedWorld
let client: PublicClient
let gateway: Server
let gatewayUrl: string
const gatewayPaths: string[] = []

beforeAll(async () => {
  w = await createIndexedWorld({ chainId: CHAIN_ID, transfers: 600, wallets: 12 })
  client = createPublicClient({ transport: http(w.anvil.rpcUrl) }) as PublicClient
  gateway = createServer((req, res) => {
    gatewayPaths.push(req.url ?? '')
    const id = req.url?.match(/\/([0-9a-f]+)\.json$/)?.[1] ?? '?'
    res.setHeader('content-type', 'application/json')
    res.end(
      JSON.stringify({
        name: `Gateway item ${id}`,
        description: 'Served by the test gateway',
        image: `ipfs://bafyimage/${id}.png`,
        attributes: [{ trait_type: 'id', value: id }],
      }),
    )
  })
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve))
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/ipfs/`
})
afterAll(async () => {
  await new Promise((resolve) => gateway?.close(resolve))
  await w?.stop()
})

async function walk(api: TestApi, path: string, limit: number) {
  const items: any[] = []
  let offset: string | undefined
  for (let page = 0; page < 2000; page++) {
    const sep = path.includes('?') ? '&' : '?'
    const res = await api.get(
      `${path}${sep}limit=${limit}${offset ? `&offset=${encodeURIComponent(offset)}` : ''}`,
    )
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.collectibles.length).toBeLessThanOrEqual(limit)
    items.push(...res.body.collectibles)
    offset = res.body.next_offset
    if (offset === undefined) return items
  }
  throw new Error('too many pages')
}

const key = (c: any) => `${c.chain_id}|${c.contract_address}|${c.token_id}`

for (const dialect of DIALECTS) {
  describe(`collectibles (${dialect})`, () => {
    let t: TestStore
    let api: TestApi
    /** Every wallet's collectibles, spam included (one page of 500). */
    const all = new Map<string, any[]>()

    beforeAll(async () => {
      t = await createTestStore(dialect)
      await w.indexInto(t.store)
      const rpc = createRpcClient({ urls: [w.anvil.rpcUrl] })
      const worker = createNftMetadataWorker({
        store: t.store,
        rpcFor: () => rpc,
        logger: silentLogger(),
        ipfsGateway: gatewayUrl,
        allowPrivate: true,
        lookup: localOnlyLookup,
        timeoutMs: 2_000,
        batchSize: 100,
        concurrency: 16,
      })
      for (let round = 0; round < 50; round++) {
        const r = await worker.tick()
        if (r.enqueued === 0 && r.processed === 0 && r.scanDone) break
      }
      rpc.close()
      api = await createTestApi({
        store: t.store,
        chains: [testChainConfig({ chainId: CHAIN_ID, rpc: [w.anvil.rpcUrl] })],
        routes: [systemRoutes, collectiblesRoutes],
      })
      for (const wallet of w.world.wallets) {
        const r = await api.get(`/v1/evm/collectibles/${wallet}?filter_spam=false&limit=500`)
        expect(r.status).toBe(200)
        expect(r.body.next_offset).toBeUndefined()
        all.set(wallet, r.body.collectibles)
      }
    })
    afterAll(async () => {
      await api?.close()
      await t?.drop()
    })

    test('default: every row matches ownerOf / balanceOf at the last block', async () => {
      const blockNumber = w.world.endBlock
      let erc721 = 0
      let erc1155 = 0
      for (const [wallet, items] of all) {
        for (const c of items) {
          const address = c.contract_address as `0x${string}`
          if (c.token_standard === 'ERC721') {
            const owner = await client.readContract({
              address,
              abi: erc721Abi,
              functionName: 'ownerOf',
              args: [BigInt(c.token_id)],
              blockNumber,
            })
            expect(owner.toLowerCase()).toBe(wallet)
            expect(c.balance).toBe('1')
            erc721++
          } else {
            const balance = await client.readContract({
              address,
              abi: erc1155Abi,
              functionName: 'balanceOf',
              args: [wallet as `0x${string}`, BigInt(c.token_id)],
              blockNumber,
            })
            expect(c.balance).toBe(balance.toString())
            expect(balance).toBeGreaterThan(0n)
            erc1155++
          }
          expect(c.token_id).toMatch(/^\d+$/)
          expect(c.last_acquired).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)
          expect(c.chain).toBe('ethereum')
        }
      }
      expect(erc721).toBeGreaterThan(20)
      expect(erc1155).toBeGreaterThan(5)
    })

    test('behavior: the spam collection is spam, the demo collections are not', async () => {
      const spam = w.world.spamNft.toLowerCase()
      const demo = new Set(
        w.world.nfts
          .filter((n) => n.address !== w.world.spamNft)
          .map((n) => n.address.toLowerCase()),
      )
      for (const items of all.values()) {
        expect(items.some((c) => c.contract_address === spam)).toBe(true)
        for (const c of items) {
          if (c.contract_address === spam) expect(c.is_spam).toBe(true)
          if (demo.has(c.contract_address)) expect(c.is_spam).toBe(false)
        }
      }
      const wallet = w.world.wallets[0] as string
      const shown = await api.get(`/v1/evm/collectibles/${wallet}`)
      expect(shown.body.collectibles.some((c: any) => c.contract_address === spam)).toBe(false)
      expect(shown.body.collectibles.length).toBe(
        (all.get(wallet) ?? []).filter((c) => !c.is_spam).length,
      )
      const scored = await api.get(
        `/v1/evm/collectibles/${wallet}?filter_spam=false&show_spam_scores`,
      )
      const item = scored.body.collectibles.find((c: any) => c.contract_address === spam)
      expect(item.spam_score).toBeGreaterThanOrEqual(50)
      expect(item.metadata.uri).toMatch(/^http:\/\/bit\.ly\/claim-reward\?id=\d+$/)
      expect(item.explanations.map((e: any) => e.feature)).toEqual([
        'trade_volume',
        'unique_buyers',
        'unique_sellers',
        'externally_flagged',
        'uri_non_ipfs',
        'suspicious_words',
        'url_shortener',
        'manual_classification',
      ])
      expect(item.explanations.find((e: any) => e.feature === 'url_shortener')).toEqual({
        feature: 'url_shortener',
        value: true,
        feature_score: 100,
        // 2 of 0.5 × 3 + 1 + 2 + 2 (no flag, no classification)
        feature_weight: 0.3077,
      })
      for (const c of scored.body.collectibles) {
        if (demo.has(c.contract_address)) expect(c.spam_score).toBeLessThan(50)
      }
      expect(shown.body.collectibles[0].spam_score).toBeUndefined()
    })

    test('behavior: the worker loaded data: and ipfs:// metadata', async () => {
      const [inline, ipfs] = w.world.nfts.map((n) => n.address.toLowerCase())
      const erc1155 = w.world.nfts.find((n) => n.standard === 'erc1155')?.address.toLowerCase()
      const items = [...all.values()].flat()
      const a = items.find((c) => c.contract_address === inline)
      expect(a.metadata.uri).toMatch(/^data:application\/json;base64,/)
      expect(a.description).toBe('Scry demo NFT')
      expect(a.image_url).toBe(
        `${gatewayUrl}bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/${a.token_id}.png`,
      )
      const b = items.find((c) => c.contract_address === ipfs)
      expect(b.metadata).toEqual({
        uri: `ipfs://bafybeihpjhkeuiq3k6nqa3fkgeigeri7iebtrsuyuey5y6vy36n345xmbi/${b.token_id}.json`,
        // The published attribute shape: key (trait_type), value as text.
        attributes: [{ key: 'id', value: String(b.token_id) }],
      })
      expect(b.description).toBe('Served by the test gateway')
      expect(b.image_url).toBe(`${gatewayUrl}bafyimage/${b.token_id}.png`)
      const c = items.find((i) => i.contract_address === erc1155)
      const hexId = BigInt(c.token_id).toString(16).padStart(64, '0')
      expect(c.metadata.uri).toBe(
        `ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/${hexId}.json`,
      )
      expect(gatewayPaths).toContain(
        `/ipfs/bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/${hexId}.json`,
      )
      const rows = await t.store.db.selectFrom('nft_metadata').selectAll().execute()
      const spam = rows.filter((r) => r.contract === w.world.spamNft.toLowerCase())
      expect(spam.length).toBeGreaterThan(0)
      for (const r of spam) {
        expect(r.status === 'ok').toBe(false)
        expect(r.error).toBeTruthy()
        expect(r.attempts).toBe(1)
      }
      const demo = rows.filter((r) => [inline, ipfs, erc1155].includes(r.contract))
      expect(demo.every((r) => r.status === 'ok')).toBe(true)
    })

    test('behavior: failed loads are retried with backoff, then given up', async () => {
      const pending = await t.store.db
        .selectFrom('nft_metadata')
        .selectAll()
        .where('status', '=', 'pending')
        .execute()
      // Uniswap V3 positions: the demo's descriptor is an EOA, so tokenURI reverts.
      const positions = pending.filter(
        (r) => r.contract === w.world.uniswap.positionManager.toLowerCase(),
      )
      expect(positions.length).toBeGreaterThan(0)
      for (const r of pending) {
        expect(r.attempts).toBe(1)
        expect(r.next_attempt_at).toBe((r.fetched_at ?? 0) + 60)
      }
      expect(positions[0]?.error).toBe('tokenURI reverted.')
      const rpc = createRpcClient({ urls: [w.anvil.rpcUrl] })
      const later = createNftMetadataWorker({
        store: t.store,
        rpcFor: () => rpc,
        logger: silentLogger(),
        ipfsGateway: gatewayUrl,
        allowPrivate: true,
        lookup: localOnlyLookup,
        timeoutMs: 1_000,
        maxAttempts: 2,
        now: () => Date.now() + 61_000,
      })
      const r = await later.tick()
      rpc.close()
      expect(r.processed).toBe(pending.length)
      const after = await t.store.db
        .selectFrom('nft_metadata')
        .select(['status', 'attempts'])
        .where('contract', '=', w.world.uniswap.positionManager.toLowerCase())
        .execute()
      expect(after.every((a) => a.status === 'error' && a.attempts === 2)).toBe(true)
    })

    test('behavior: walking pages with limit 1, 2, 7 and 500 returns each row once', async () => {
      const [wallet, items] = [...all.entries()].sort((x, y) => y[1].length - x[1].length)[0]!
      expect(items.length).toBeGreaterThan(7)
      for (const limit of [1, 2, 7, 500]) {
        const walked = await walk(api, `/v1/evm/collectibles/${wallet}?filter_spam=false`, limit)
        expect(walked.map(key)).toEqual(items.map(key))
        const visible = await walk(api, `/v1/evm/collectibles/${wallet}`, limit)
        expect(visible.map(key)).toEqual(items.filter((c) => !c.is_spam).map(key))
      }
      // Keyset order: chain, contract, numeric token id.
      const order = items.map((c) => [c.chain_id, c.contract_address, BigInt(c.token_id)])
      const sorted = [...order].sort((x: any, y: any) =>
        x[1] === y[1] ? (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0) : x[1] < y[1] ? -1 : 1,
      )
      expect(order).toEqual(sorted)
    })

    test('args: chain_ids, unsupported chains and the cost header', async () => {
      const wallet = w.world.wallets[1] as string
      const plain = await api.get(
        `/v1/evm/collectibles/${wallet.toUpperCase().replace('0X', '0x')}`,
      )
      expect(plain.status).toBe(200)
      expect(plain.body.wallet_address).toBe(wallet)
      expect(plain.headers.get('x-compute-units-cost')).toBe('1')
      const mixed = await api.get(`/v1/evm/collectibles/${wallet}?chain_ids=1,8453`)
      expect(mixed.headers.get('x-compute-units-cost')).toBe('1')
      expect(mixed.body.collectibles).toEqual(plain.body.collectibles)
      expect(mixed.body.warnings).toEqual([
        {
          code: 'UNSUPPORTED_CHAIN_IDS',
          message: 'These chain ids are not supported here for this endpoint: 8453.',
          chain_ids: [8453],
        },
      ])
      const none = await api.get(`/v1/evm/collectibles/${wallet}?chain_ids=8453`)
      expect(none.status).toBe(200)
      expect(none.body.collectibles).toEqual([])
      expect(none.headers.get('x-compute-units-cost')).toBe('0')
      const bad = await api.get(`/v1/evm/collectibles/${wallet}?offset=nonsense`)
      expect(bad.status).toBe(200)
      expect(bad.body.collectibles).toEqual(plain.body.collectibles)
      expect(bad.body.warnings).toEqual([
        {
          code: 'INVALID_OFFSET',
          message: 'The offset was not issued for this query; the first page is returned.',
        },
      ])
      // A cursor of another query does not carry over.
      const first = await api.get(`/v1/evm/collectibles/${wallet}?filter_spam=false&limit=1`)
      const other = await api.get(
        `/v1/evm/collectibles/${wallet}?limit=1&offset=${encodeURIComponent(first.body.next_offset)}`,
      )
      expect(other.body.warnings?.[0]?.code).toBe('INVALID_OFFSET')
      const huge = await api.get(`/v1/evm/collectibles/${wallet}?filter_spam=false&limit=99999999`)
      expect(huge.status).toBe(200)
    })

    test('error: bad inputs are 400', async () => {
      const wallet = w.world.wallets[0] as string
      const cases: [string, string][] = [
        [
          '/v1/evm/collectibles/0x123',
          'Invalid params parameter address: must match pattern "^0x[a-fA-F0-9]{40}$".',
        ],
        [
          `/v1/evm/collectibles/${wallet}?limit=0`,
          'Invalid querystring parameter limit: must be >= 1.',
        ],
        [
          `/v1/evm/collectibles/${wallet}?limit=-3`,
          'Invalid querystring parameter limit: must be >= 1.',
        ],
        [
          `/v1/evm/collectibles/${wallet}?limit=abc`,
          'Invalid querystring parameter limit: must be integer.',
        ],
        [
          `/v1/evm/collectibles/${wallet}?limit=1.5`,
          'Invalid querystring parameter limit: must be integer.',
        ],
        [
          `/v1/evm/collectibles/${wallet}?filter_spam=yes`,
          'Invalid filter_spam: expected true or false.',
        ],
        [
          `/v1/evm/collectibles/${wallet}?show_spam_scores=1`,
          'Invalid show_spam_scores: expected true or false.',
        ],
        [
          `/v1/evm/collectibles/${wallet}?filter_spam=${'x'.repeat(50)}`,
          'Invalid querystring parameter filter_spam: must NOT have more than 5 characters.',
        ],
      ]
      for (const [path, message] of cases) {
        const r = await api.get(path)
        expect([path, r.status, r.body]).toEqual([
          path,
          400,
          { error: { message, code: 'BAD_REQUEST' } },
        ])
      }
      for (const chainIds of ['ethereum', '1,%E2%9C%93', 'mainnet,foo', '-1']) {
        const r = await api.get(`/v1/evm/collectibles/${wallet}?chain_ids=${chainIds}`)
        expect([chainIds, r.status, r.body.error.code]).toEqual([chainIds, 400, 'BAD_REQUEST'])
      }
      const nokey = await api.get(`/v1/evm/collectibles/${wallet}`, { key: null })
      expect([nokey.status, nokey.body]).toEqual([401, { error: 'missing API key' }])
    })
  })
}
