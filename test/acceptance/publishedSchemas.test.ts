import { existsSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { stablecoinRegistry } from '../../src/chains/stablecoins.ts'
import { createRpcClient } from '../../src/evm/rpc/createRpcClient.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { createNftMetadataWorker } from '../../src/nft/createNftMetadataWorker.ts'
import { createSvmChain, type SvmChain } from '../../src/svm/createSvmChain.ts'
import { createDeliveryWorker } from '../../src/webhooks/createDeliveryWorker.ts'
import { createIndexedWorld, type IndexedWorld } from '../support/createIndexedWorld.ts'
import { callNode, createSvmTestWorld } from '../support/createSvmTestWorld.ts'
import { createTestApi, type TestApi } from '../support/createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from '../support/createTestStore.ts'
import { createWebhookReceiver } from '../support/createWebhookReceiver.ts'
import { localOnlyLookup } from '../support/localOnlyLookup.ts'
import { createPublishedValidator, PUBLISHED_SCHEMAS_FILE } from '../support/publishedSchemas.ts'

// Acceptance (issue 15): every 200 answer of every operation of the hosted API's published
// document that Scry serves, under the `sim` profile, validates against the published schema
// (ajv, strict), on a world of our own: an indexed EVM chain with priced tokens, swaps, NFTs
// with and without metadata, and Solana/Eclipse nodes; SQLite and PostgreSQL.
const CHAIN_ID = 1
const SPEC_FILE = new URL('../../../shared/spec/sim-schemas.json', import.meta.url)
const HOOKS = '/beta/evm/subscriptions/webhooks'

type Answer = { path: string; status: number; body: any }
type Subjects = {
  wallets: string[]
  /** ERC20 tokens of the world (priced and unpriced). */
  tokens: string[]
  /** SVM wallets with their chain. */
  svmWallets: { chain: string; wallet: string }[]
  solanaWallets: string[]
}
type Client = {
  s: Subjects
  get(path: string): Promise<Answer>
  /** Every page of a list, following `next_offset`. */
  walk(path: string): Promise<Answer[]>
  call(method: string, path: string, body?: unknown): Promise<Answer>
  /** Creates a webhook through the published path; returns its answer. */
  createHook(overrides?: Record<string, unknown>): Promise<Answer>
}
type Case = { operation: string } & (
  | {
      answers: (c: Client) => Promise<Answer[]>
      /** What the answers must show, so that the schema is exercised where it matters. */
      covers?: (answers: Answer[]) => void
    }
  | { notServed: string }
)

/** Sequentially, one list of answers per subject. */
async function each<T>(subjects: readonly T[], run: (s: T) => Promise<Answer[]>) {
  const out: Answer[] = []
  for (const subject of subjects) out.push(...(await run(subject)))
  return out
}
const rows = (answers: Answer[], list: string) => answers.flatMap((a) => a.body[list] ?? [])
const paged = (answers: Answer[]) => answers.some((a) => typeof a.body.next_offset === 'string')

/** One line per operation of the published document: what Scry answers it with, or why not. */
const CASES: Case[] = [
  {
    operation: 'GET /v1/evm/activity/{address}',
    answers: (c) => each(c.s.wallets, (w) => c.walk(`/v1/evm/activity/${w}?limit=40`)),
    covers: (answers) => {
      expect(paged(answers)).toBe(true)
      const types = new Set(rows(answers, 'activity').map((i) => i.type))
      expect([...types].sort()).toEqual(
        expect.arrayContaining(['approve', 'call', 'mint', 'receive', 'send', 'swap']),
      )
      expect(rows(answers, 'activity').some((i) => i.function?.inputs?.length > 0)).toBe(true)
    },
  },
  {
    operation: 'GET /v1/evm/balances/{address}',
    answers: (c) =>
      each(c.s.wallets, async (w) => [
        ...(await c.walk(`/v1/evm/balances/${w}?chain_ids=${CHAIN_ID}&limit=3`)),
        await c.get(
          `/v1/evm/balances/${w}?metadata=logo,url,pools&historical_prices=1,24,168&exclude_spam_tokens=false`,
        ),
      ]),
    covers: (answers) => {
      expect(paged(answers)).toBe(true)
      const balances = rows(answers, 'balances')
      expect(balances.some((b) => b.pool && b.value_usd > 0)).toBe(true)
      expect(balances.some((b) => b.historical_prices?.length > 0)).toBe(true)
      expect(balances.some((b) => b.price_usd === undefined)).toBe(true)
    },
  },
  {
    operation: 'GET /v1/evm/balances/{address}/token/{token_address}',
    answers: (c) =>
      each(c.s.wallets.slice(0, 4), (w) =>
        each(['native', ...c.s.tokens], async (token) => {
          const answer = await c.get(`/v1/evm/balances/${w}/token/${token}?chain_ids=${CHAIN_ID}`)
          return answer.status === 404 ? [] : [answer] // tokens that are not ERC20 (NFTs)
        }),
      ),
  },
  {
    operation: 'GET /v1/evm/collectibles/{address}',
    answers: (c) =>
      each(c.s.wallets, async (w) => [
        ...(await c.walk(`/v1/evm/collectibles/${w}?filter_spam=false&show_spam_scores&limit=4`)),
        await c.get(`/v1/evm/collectibles/${w}`),
      ]),
    covers: (answers) => {
      expect(paged(answers)).toBe(true)
      const entries = rows(answers, 'entries')
      expect(entries.some((e) => e.metadata?.attributes?.length > 0 && e.image_url)).toBe(true)
      expect(entries.some((e) => e.image_url?.startsWith('data:image/svg+xml;utf8,%3Csvg'))).toBe(
        true,
      )
      expect(entries.some((e) => e.metadata === undefined)).toBe(true)
      expect(entries.some((e) => e.token_standard === 'ERC1155')).toBe(true)
      expect(entries.some((e) => e.is_spam && e.explanations?.length > 0)).toBe(true)
    },
  },
  {
    operation: 'GET /v1/evm/defi/positions/{address}',
    answers: (c) => each(c.s.wallets, async (w) => [await c.get(`/v1/evm/defi/positions/${w}`)]),
    covers: (answers) => {
      const types = new Set(rows(answers, 'positions').map((p) => p.type))
      expect([...types].sort()).toEqual(['Nft', 'UniswapV2'])
      expect(answers.some((a) => a.body.positions?.length === 0)).toBe(true)
    },
  },
  {
    operation: 'GET /v1/evm/defi/supported-protocols',
    answers: async (c) => [
      await c.get('/v1/evm/defi/supported-protocols'),
      await c.get('/v1/evm/defi/supported-protocols?include_preview_chains=true'),
    ],
    covers: (answers) =>
      expect(rows(answers, 'protocol_families').map((f) => f.family)).toContain('uniswap_v3'),
  },
  {
    operation: 'GET /v1/evm/balances/{address}/stablecoins',
    answers: (c) => each(c.s.wallets, (w) => c.walk(`/v1/evm/balances/${w}/stablecoins?limit=1`)),
    covers: (answers) => expect(rows(answers, 'balances').length).toBeGreaterThan(0),
  },
  {
    operation: 'GET /v1/evm/supported-chains',
    answers: async (c) => [await c.get('/v1/evm/supported-chains')],
  },
  {
    operation: 'GET /v1/evm/token-holders/{chain_id}/{address}',
    answers: (c) =>
      each(c.s.tokens, async (token) => {
        const first = await c.get(`/v1/evm/token-holders/${CHAIN_ID}/${token}?limit=1`)
        if (first.status === 404) return [] // NFT contracts
        return c.walk(`/v1/evm/token-holders/${CHAIN_ID}/${token}?limit=5`)
      }),
    covers: (answers) => expect(paged(answers)).toBe(true),
  },
  {
    operation: 'GET /v1/evm/search/tokens',
    answers: async (c) => [
      await c.get(`/v1/evm/search/tokens?query=demo&chain_ids=${CHAIN_ID}`),
      await c.get('/v1/evm/search/tokens?query=zzzz-nothing'),
    ],
    covers: (answers) => {
      expect(answers.some((a) => Array.isArray(a.body) && a.body.length > 1)).toBe(true)
      expect(answers.some((a) => Array.isArray(a.body) && a.body.length === 0)).toBe(true)
    },
  },
  {
    operation: 'GET /v1/evm/token-info/{address}',
    answers: (c) =>
      each(['native', ...c.s.tokens], async (token) => {
        const path = `/v1/evm/token-info/${token}?chain_ids=${CHAIN_ID}`
        const answer = await c.get(`${path}&historical_prices=1,24`)
        if (answer.status === 404) return [] // NFT contracts
        return [answer, ...(await c.walk(`${path}&limit=0`))]
      }),
    covers: (answers) => {
      expect(paged(answers)).toBe(true)
      expect(rows(answers, 'tokens').some((t) => t.historical_prices?.length > 0)).toBe(true)
    },
  },
  {
    operation: 'GET /v1/evm/transactions/{address}',
    answers: (c) =>
      each(c.s.wallets, async (w) => [
        ...(await c.walk(`/v1/evm/transactions/${w}?decode=true&limit=30`)),
        await c.get(`/v1/evm/transactions/${w}?chain_ids=${CHAIN_ID}&limit=5`),
      ]),
    covers: (answers) => {
      expect(paged(answers)).toBe(true)
      const txs = rows(answers, 'transactions')
      expect(txs.some((t) => t.decoded?.inputs.some((i: any) => i.type.startsWith('(')))).toBe(true)
      expect(txs.some((t) => t.logs.some((l: any) => l.decoded))).toBe(true)
    },
  },
  {
    operation: `GET ${HOOKS}`,
    answers: async (c) => {
      await c.createHook()
      await c.createHook({ type: 'transactions', transaction_type: 'sender' })
      return c.walk(`${HOOKS}?limit=1`)
    },
    covers: (answers) => expect(paged(answers)).toBe(true),
  },
  {
    operation: `POST ${HOOKS}`,
    answers: async (c) => [
      await c.createHook(),
      await c.createHook({ type: 'activities', activity_type: 'swap', asset_type: 'erc20' }),
      await c.createHook({ type: 'balances', chain_ids: null, token_address: c.s.tokens[0] }),
      await c.createHook({ type: 'transactions', counterparty: c.s.wallets[1] }),
    ],
  },
  {
    operation: `GET ${HOOKS}/{webhookId}`,
    answers: async (c) => [await c.get(`${HOOKS}/${(await c.createHook()).body.id}`)],
  },
  {
    operation: `PATCH ${HOOKS}/{webhookId}`,
    answers: async (c) => {
      const { id } = (await c.createHook({ type: 'activities' })).body
      return [
        await c.call('PATCH', `${HOOKS}/${id}`, { active: false, name: 'renamed' }),
        await c.call('PATCH', `${HOOKS}/${id}`, { activity_type: 'send', chain_ids: [CHAIN_ID] }),
        await c.call('PATCH', `${HOOKS}/${id}`, { activity_type: null, asset_type: null }),
      ]
    },
  },
  {
    operation: `GET ${HOOKS}/{webhookId}/addresses`,
    answers: async (c) => {
      const { id } = (await c.createHook({ addresses: c.s.wallets.slice(0, 5) })).body
      return c.walk(`${HOOKS}/${id}/addresses?limit=2`)
    },
    covers: (answers) => expect(paged(answers)).toBe(true),
  },
  {
    operation: 'GET /beta/svm/balances/{address}',
    answers: (c) =>
      each(c.s.svmWallets, async ({ chain, wallet }) => [
        ...(await c.walk(`/beta/svm/balances/${wallet}?chains=${chain}&limit=2`)),
        await c.get(`/beta/svm/balances/${wallet}?chains=all`),
      ]),
    covers: (answers) => {
      expect(paged(answers)).toBe(true)
      expect(rows(answers, 'balances').some((b) => b.price_usd > 0)).toBe(true)
    },
  },
  {
    operation: 'GET /beta/svm/transactions/{address}',
    answers: (c) => each(c.s.solanaWallets, (w) => c.walk(`/beta/svm/transactions/${w}?limit=2`)),
    covers: (answers) => {
      expect(paged(answers)).toBe(true)
      expect(rows(answers, 'transactions').length).toBeGreaterThan(0)
    },
  },
]

let w: IndexedWorld
let svmWorld: Awaited<ReturnType<typeof createSvmTestWorld>>
let gateway: Server
let gatewayUrl: string
const validator = createPublishedValidator()

beforeAll(async () => {
  // Its head two hours after the rest: historical_prices=1 has points to answer with.
  w = await createIndexedWorld({
    chainId: CHAIN_ID,
    transfers: 600,
    wallets: 12,
    priced: true,
    laterHours: 2,
  })
  svmWorld = await createSvmTestWorld()
  // Finalized Solana transactions are served from the store: wait until the node has some.
  const solana = svmWorld.chains.get('solana')!
  for (let i = 0; i < 300; i++) {
    const infos = await callNode<{ confirmationStatus: string }[]>(
      solana.node.rpcUrl,
      'getSignaturesForAddress',
      [solana.world.busyWallet, { commitment: 'confirmed' }],
    )
    if (infos.every((info) => info.confirmationStatus === 'finalized')) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  // An IPFS gateway for the NFTs whose metadata is on ipfs:// (attributes included).
  gateway = createServer((req, res) => {
    const id = req.url?.match(/\/([0-9a-f]+)\.json$/)?.[1] ?? '0'
    res.setHeader('content-type', 'application/json')
    res.end(
      JSON.stringify({
        name: `Item ${id}`,
        description: 'Served by the test gateway',
        // Odd ids: an inline SVG as metadata often has it, not a valid URI as it stands.
        image:
          Number.parseInt(id, 16) % 2 === 1
            ? `data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg"><text>#${id} 100%</text></svg>`
            : `ipfs://bafyimage/${id}.png`,
        attributes: [
          { trait_type: 'id', value: id },
          { trait_type: 'level', value: 3, display_type: 'number', max_value: 10 },
          { value: 'untyped' },
        ],
      }),
    )
  })
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve))
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/ipfs/`
}, 400_000)

afterAll(async () => {
  await new Promise((resolve) => gateway?.close(resolve))
  svmWorld?.stop()
  await w?.stop()
})

test('default: the copy of the published schemas is the spec’s, and every operation is listed', () => {
  if (existsSync(SPEC_FILE)) {
    expect(readFileSync(PUBLISHED_SCHEMAS_FILE, 'utf8')).toBe(readFileSync(SPEC_FILE, 'utf8'))
  }
  expect(CASES.map((c) => c.operation).sort()).toEqual([...validator.operations].sort())
})

for (const dialect of DIALECTS) {
  describe(`published schemas (${dialect})`, () => {
    let t: TestStore
    let api: TestApi
    let svm: Map<string, SvmChain>
    let receiver: Awaited<ReturnType<typeof createWebhookReceiver>>
    /** A key answered in the `sim` profile, of the same account as `api.key` (default). */
    let simKey: string
    /** Subscriptions made before indexing, per type: through /v1 and through /beta. */
    const twins: { type: string; v1: string; beta: string }[] = []

    const request = async (method: string, path: string, key: string, body?: unknown) => {
      const res = await fetch(`${api.url}${path}`, {
        method,
        headers: {
          'x-scry-api-key': key,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const text = await res.text()
      return { path: `${method} ${path}`, status: res.status, body: text ? JSON.parse(text) : {} }
    }
    const client = (key: string): Client => {
      const c: Client = {
        s: subjects(),
        get: (path) => request('GET', path, key),
        call: (method, path, body) => request(method, path, key, body),
        async walk(path) {
          const pages: Answer[] = []
          let offset: string | undefined
          do {
            const sep = path.includes('?') ? '&' : '?'
            const page = await c.get(
              offset === undefined ? path : `${path}${sep}offset=${encodeURIComponent(offset)}`,
            )
            pages.push(page)
            offset = page.status === 200 ? page.body.next_offset : undefined
          } while (typeof offset === 'string' && pages.length < 200)
          return pages
        },
        createHook: (overrides = {}) =>
          c.call('POST', HOOKS, {
            name: 'hook',
            url: receiver.url,
            type: 'activities',
            addresses: [subjects().wallets[0]],
            chain_ids: [CHAIN_ID],
            ...overrides,
          }),
      }
      return c
    }
    const subjects = (): Subjects => ({
      wallets: w.world.wallets.map((a) => a.toLowerCase()),
      tokens: w.world.tokens.map((tk) => tk.address.toLowerCase()),
      svmWallets: [...svmWorld.chains].flatMap(([chain, { world }]) =>
        world.wallets.map((wallet) => ({ chain, wallet })),
      ),
      solanaWallets: svmWorld.chains.get('solana')!.world.wallets,
    })

    beforeAll(async () => {
      t = await createTestStore(dialect)
      svm = new Map(
        [...svmWorld.chains.values()].map(({ config }) => [
          config.name,
          createSvmChain({ config, store: t.store }),
        ]),
      )
      api = await createTestApi({
        store: t.store,
        chains: [w.chain],
        overrides: {
          svm,
          keyHeaders: ['X-Sim-Api-Key'],
          webhookUrls: { allowHttp: true, allowPrivate: true },
          // The world's dollar is not at a mainnet address: registered as config would.
          stablecoins: stablecoinRegistry([
            { chainId: CHAIN_ID, address: w.world.usd, symbol: 'DUSD', peg: 'USD' },
          ]),
        },
      })
      const account = (await api.ctx.accounts.listKeys())[0]!.accountId
      simKey = (
        await api.ctx.accounts.createKey({ name: 'sim', accountId: account, profile: 'sim' })
      ).key
      receiver = await createWebhookReceiver()

      // Twin subscriptions exist before the world is indexed, so every block makes events.
      const busy = w.world.wallets[1]!.toLowerCase()
      for (const type of ['activities', 'transactions', 'balances']) {
        const v1 = await request('POST', '/v1/evm/subscriptions', api.key, {
          webhook_url: receiver.url,
          type,
          chain_ids: [CHAIN_ID],
          addresses: [busy],
        })
        const beta = await request('POST', HOOKS, simKey, {
          name: `${type} twin`,
          url: receiver.url,
          type,
          chain_ids: [CHAIN_ID],
          addresses: [busy],
        })
        expect([v1.status, beta.status]).toEqual([201, 201])
        twins.push({ type, v1: v1.body.id, beta: beta.body.id })
      }

      await w.indexInto(t.store)
      const rpc = createRpcClient({ urls: [w.anvil.rpcUrl] })
      const metadata = createNftMetadataWorker({
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
        const r = await metadata.tick()
        if (r.enqueued === 0 && r.processed === 0 && r.scanDone) break
      }
      rpc.close()

      const worker = new AbortController()
      void createDeliveryWorker({
        store: t.store,
        meter: api.ctx.meter,
        logger: silentLogger(),
        allowHttp: true,
        allowPrivate: true,
        pollIntervalMs: 20,
        concurrency: 8,
      }).run(worker.signal)
      for (let i = 0; i < 1200; i++) {
        const pending = await t.store.db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '=', 'pending')
          .executeTakeFirst()
        if (!pending) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      worker.abort()
    }, 400_000)

    afterAll(async () => {
      await receiver?.close()
      await api?.close()
      for (const chain of svm?.values() ?? []) chain.close()
      await t?.drop()
    })

    test('default: every 200 answer of every served operation conforms (sim profile)', async () => {
      const c = client(simKey)
      // One line per kind of problem (array indexes folded), with a count and an example.
      const kinds = new Map<string, { count: number; example: string }>()
      const problems = {
        push(line: string) {
          const [where, what] = [
            line.slice(0, line.indexOf(': ')),
            line.slice(line.indexOf(': ') + 2),
          ]
          const kind = `${where.split('?')[0]!.replace(/0x[0-9a-f]{40}|[1-9A-HJ-NP-Za-km-z]{32,44}/g, '{address}')}: ${what.replace(/\/\d+(?=\/|\s)/g, '/*')}`
          const seen = kinds.get(kind)
          if (seen) seen.count++
          else kinds.set(kind, { count: 1, example: where })
        },
      }
      for (const entry of CASES) {
        if ('notServed' in entry) continue
        const answers = await entry.answers(c)
        expect(answers.length, entry.operation).toBeGreaterThan(0)
        for (const answer of answers) {
          if (answer.status < 200 || answer.status > 299) {
            problems.push(`${answer.path}: status ${answer.status} ${JSON.stringify(answer.body)}`)
            continue
          }
          for (const error of validator.validate(entry.operation, answer.body)) {
            problems.push(`${answer.path}: ${error}`)
          }
        }
        try {
          entry.covers?.(answers)
        } catch (error) {
          problems.push(`${entry.operation}: the answers do not cover it: ${error}`)
        }
      }
      expect(
        [...kinds].map(([kind, { count, example }]) => `${kind} (${count}×, e.g. ${example})`),
      ).toEqual([])
    })

    test('behavior: the default profile keeps interface.md’s names; the key decides, whatever its header', async () => {
      const wallet = w.world.wallets[0]!.toLowerCase()
      const token = w.world.usd.toLowerCase()
      const ask = async (path: string, headers: Record<string, string>) => {
        const res = await fetch(`${api.url}${path}`, { headers })
        return (await res.json()) as any
      }
      const collectibles = `/v1/evm/collectibles/${wallet}?filter_spam=false`
      const lastHolders = `/v1/evm/token-holders/${CHAIN_ID}/${token}?limit=500`
      const plain = { 'X-Scry-Api-Key': api.key }
      const sim = { 'X-Scry-Api-Key': simKey }
      for (const headers of [plain, { 'X-Sim-Api-Key': api.key }]) {
        const body = await ask(collectibles, headers)
        expect(Object.keys(body).sort()).toEqual([
          'collectibles',
          'request_time',
          'response_time',
          'wallet_address',
        ])
        expect((await ask('/v1/evm/supported-chains', headers)).chains[0]).toMatchObject({
          chain_id: CHAIN_ID,
          name: 'ethereum',
        })
        expect((await ask(lastHolders, headers)).next_offset).toBeNull()
      }
      for (const headers of [sim, { 'X-Sim-Api-Key': simKey }]) {
        const body = await ask(collectibles, headers)
        expect(Object.keys(body).sort()).toEqual([
          'address',
          'entries',
          'request_time',
          'response_time',
        ])
        const chain = (await ask('/v1/evm/supported-chains', headers)).chains[0]
        expect(chain).toMatchObject({
          id: CHAIN_ID,
          name: 'ethereum',
          tags: ['default', 'mainnet'],
        })
        expect(chain.chain_id).toBeUndefined()
        expect('next_offset' in (await ask(lastHolders, headers))).toBe(false)
      }
      // Same data, other names.
      const [a, b] = [await ask(collectibles, plain), await ask(collectibles, sim)]
      expect(b.address).toBe(a.wallet_address)
      expect(b.entries).toEqual(a.collectibles)
      expect(a.collectibles.length).toBeGreaterThan(0)
      // Without a key: the server's default.
      expect((await ask('/v1/evm/supported-chains', {})).chains[0].chain_id).toBe(CHAIN_ID)

      // A server whose default is `sim`: keyless requests and keys without a profile get it;
      // a key set to `default` keeps interface.md's names.
      const simServer = await createTestApi({
        store: t.store,
        chains: [w.chain],
        overrides: { responseProfile: 'sim' },
      })
      try {
        const { key: pinned } = await simServer.ctx.accounts.createKey({
          name: 'pinned',
          profile: 'default',
        })
        const chains = (key: string | null) =>
          simServer.get('/v1/evm/supported-chains', { key }).then((r) => r.body.chains[0])
        expect(await chains(null)).toMatchObject({ id: CHAIN_ID })
        expect(await chains(simServer.key)).toMatchObject({ id: CHAIN_ID })
        expect(await chains(pinned)).toMatchObject({ chain_id: CHAIN_ID })
      } finally {
        await simServer.close()
      }

      // /openapi.json: one operation per route, both shapes, the profile named.
      const spec = (await ask('/openapi.json', {})).paths
      for (const [path, list] of [
        ['/v1/evm/collectibles/{address}', 'entries'],
        ['/v1/evm/supported-chains', 'chains'],
        ['/v1/evm/token-holders/{chain_id}/{address}', 'holders'],
      ] as const) {
        const op = spec[path].get
        expect(op.description).toContain('`sim`')
        const shapes = op.responses['200'].content['application/json'].schema.anyOf
        expect(shapes.map((s: any) => s.title)).toEqual(['profile default', 'profile sim'])
        expect(Object.keys(shapes[1].properties)).toContain(list)
      }
      expect(
        spec['/v1/evm/activity/{address}'].get.responses['200'].content['application/json'].schema
          .anyOf,
      ).toBeUndefined()
    })

    test('behavior: the published webhook paths manage the same subscriptions as /v1/evm/subscriptions', async () => {
      const c = client(api.key)
      const [a, b, d] = w.world.wallets.slice(2, 5).map((x) => x.toLowerCase()) as [
        string,
        string,
        string,
      ]
      const created = await c.createHook({
        name: 'cross',
        type: 'transactions',
        addresses: [a],
        transaction_type: 'sender',
      })
      expect(created.status).toBe(201)
      const { id, secret } = created.body
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(secret).toMatch(/^whsec_/)
      const v1 = async () => (await c.get(`/v1/evm/subscriptions/${id}`)).body
      expect(await v1()).toMatchObject({
        id,
        name: 'cross',
        type: 'transactions',
        webhook_url: receiver.url,
        active: true,
        chain_ids: [CHAIN_ID],
        addresses: [a],
        transaction_type: 'sender',
      })
      expect((await v1()).secret).toBeUndefined()

      // Changed through one, seen through the other.
      expect(
        (await c.call('PATCH', `/v1/evm/subscriptions/${id}`, { counterparty: b })).status,
      ).toBe(200)
      expect((await c.get(`${HOOKS}/${id}`)).body).toMatchObject({ counterparty: b, name: 'cross' })
      const patched = await c.call('PATCH', `${HOOKS}/${id}`, {
        active: false,
        name: null,
        chain_ids: null,
      })
      expect(patched.body).toMatchObject({ active: false, name: 'cross', chain_ids: [CHAIN_ID] })
      expect(await v1()).toMatchObject({ active: false, name: 'cross' })
      expect((await c.call('PUT', `${HOOKS}/${id}/addresses`, { addresses: [b, d] })).status).toBe(
        204,
      )
      expect((await v1()).addresses.sort()).toEqual([b, d].sort())
      // Removals first, then additions: d is removed and added back.
      const change = {
        add_addresses: [a.toUpperCase().replace('0X', '0x'), d],
        remove_addresses: [d, b],
      }
      expect((await c.call('PATCH', `${HOOKS}/${id}/addresses`, change)).status).toBe(204)
      expect((await c.get(`${HOOKS}/${id}/addresses`)).body).toEqual({ addresses: [a, d].sort() })
      expect((await v1()).addresses.sort()).toEqual([a, d].sort())
      const listed = async (path: string, list: string) =>
        (await c.walk(`${path}?limit=100`)).flatMap((p) => p.body[list].map((x: any) => x.id))
      expect(await listed(HOOKS, 'webhooks')).toContain(id)
      expect(await listed('/v1/evm/subscriptions', 'subscriptions')).toContain(id)

      // Deleted through one, gone from both; and the other way round.
      expect((await c.call('DELETE', `${HOOKS}/${id}`)).status).toBe(204)
      expect((await c.get(`/v1/evm/subscriptions/${id}`)).status).toBe(404)
      expect((await c.get(`${HOOKS}/${id}`)).status).toBe(404)
      const other = await c.call('POST', '/v1/evm/subscriptions', {
        webhook_url: receiver.url,
        type: 'activities',
        chain_ids: [CHAIN_ID],
        addresses: [a],
        activity_type: ['send', 'receive'],
      })
      expect((await c.get(`${HOOKS}/${other.body.id}`)).body).toMatchObject({
        id: other.body.id,
        url: receiver.url,
        activity_type: 'send,receive',
      })
      expect((await c.call('DELETE', `/v1/evm/subscriptions/${other.body.id}`)).status).toBe(204)
      expect((await c.get(`${HOOKS}/${other.body.id}`)).status).toBe(404)

      // The rules and errors of the interface's paths hold here too.
      const bad = async (method: string, path: string, body: unknown) => {
        const r = await c.call(method, path, body)
        expect(r.status, JSON.stringify(r.body)).toBe(400)
        return r.body.error.message as string
      }
      expect(
        await bad('POST', HOOKS, { url: receiver.url, type: 'activities', addresses: [a] }),
      ).toBe("Invalid body parameter name: must have required property 'name'.")
      const kept = (await c.createHook()).body.id
      expect(await bad('PATCH', `${HOOKS}/${kept}`, { type: 'balances' })).toBe(
        'Invalid body: type is not a field it takes.',
      )
      expect(await bad('PATCH', `${HOOKS}/${kept}`, { transaction_type: 'sender' })).toBe(
        'Invalid body: transaction_type does not apply to activities subscriptions (they take activity_type, asset_type, token_address).',
      )
      expect(await bad('PUT', `${HOOKS}/${kept}/addresses`, { addresses: [] })).toBe(
        'Invalid body: addresses must not be empty.',
      )
      const hook = { name: 'x', url: receiver.url, type: 'balances', addresses: [a] }
      for (const body of [
        { ...hook, addresses: ['0x12'] },
        {
          ...hook,
          addresses: Array.from(
            { length: 1001 },
            (_, i) => `0x${i.toString(16).padStart(40, '0')}`,
          ),
        },
        { ...hook, chain_ids: ['one'] },
        { ...hook, chain_ids: [10] },
        { ...hook, url: 5 },
        { ...hook, url: 'ftp://example.com/hook' },
        { ...hook, type: 'everything' },
        { ...hook, asset_type: 'erc721' },
        { ...hook, token_address: 'usdc' },
        { ...hook, name: 'n'.repeat(201) },
        [hook],
        'hook',
      ]) {
        const r = await c.call('POST', HOOKS, body)
        expect(r.status, JSON.stringify(body).slice(0, 100)).toBe(400)
        expect(r.body.error.code).toBe('BAD_REQUEST')
      }
      for (const body of [
        { add_addresses: 'x' },
        { remove_addresses: ['nope'] },
        { addresses: [a] },
      ]) {
        const r = await c.call('PATCH', `${HOOKS}/${kept}/addresses`, body)
        expect(r.status, JSON.stringify(body)).toBe(400)
      }
      expect((await c.get(`${HOOKS}/not-a-uuid`)).status).toBe(404)
      expect(
        (await c.call('PUT', `${HOOKS}/not-a-uuid/addresses`, { addresses: [a] })).status,
      ).toBe(404)
      const { key: stranger } = await api.ctx.accounts.createKey({ name: 'stranger' })
      expect((await client(stranger).get(`${HOOKS}/${kept}`)).status).toBe(404)
      expect((await client(stranger).call('DELETE', `${HOOKS}/${kept}`)).status).toBe(404)
    })

    test('behavior: subscriptions made through either path get the same deliveries', async () => {
      for (const { type, v1, beta } of twins) {
        const of = (id: string) =>
          receiver.received.filter((r) => r.headers['scry-webhook-subscription-id'] === id)
        const [one, other] = [of(v1), of(beta)]
        expect(one.length, type).toBeGreaterThan(0)
        expect(other.map((r) => r.body)).toEqual(one.map((r) => r.body))
        for (const r of other) expect(r.headers['scry-webhook-type']).toBe(type)
      }
    })
  })
}
