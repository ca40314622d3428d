import {
  type Address,
  createPublicClient,
  erc20Abi,
  hexToString,
  http,
  type PublicClient,
  parseAbi,
  parseAbiItem,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createIndexedWorld, type IndexedWorld } from '../../../test/support/createIndexedWorld.ts'
import { createTestApi, type TestApi } from '../../../test/support/createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from '../../../test/support/createTestStore.ts'
import { testChainConfig } from '../../../test/support/testChain.ts'
import type { WorldToken } from '../../dev/buildWorld.ts'
import { systemRoutes } from './systemRoutes.ts'
import { tokensRoutes } from './tokensRoutes.ts'

const CHAIN_ID = 1
const transferEvent = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
)
const bytes32Abi = parseAbi([
  'function name() view returns (bytes32)',
  'function symbol() view returns (bytes32)',
])

let indexed: IndexedWorld
let client: PublicClient

beforeAll(async () => {
  indexed = await createIndexedWorld({ chainId: CHAIN_ID, transfers: 1200 })
  client = createPublicClient({
    transport: http(indexed.anvil.rpcUrl, { batch: { batchSize: 200 } }),
  }) as PublicClient
})
afterAll(async () => {
  await indexed?.stop()
})

/** The node's answer: every address a Transfer named, with a non-zero balance at endBlock. */
async function holdersFromNode(token: Address): Promise<{ address: string; balance: bigint }[]> {
  const block = indexed.world.endBlock
  const logs = await client.getLogs({
    address: token,
    event: transferEvent,
    fromBlock: 0n,
    toBlock: block,
  })
  const candidates = new Set<string>()
  for (const log of logs) {
    for (const a of [log.args.from, log.args.to]) if (a) candidates.add(a.toLowerCase())
  }
  candidates.delete('0x0000000000000000000000000000000000000000')
  const balances = await Promise.all(
    [...candidates].map(async (address) => ({
      address,
      balance: await client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address as Address],
        blockNumber: block,
      }),
    })),
  )
  return balances
    .filter((b) => b.balance > 0n)
    .sort((a, b) =>
      a.balance === b.balance ? (a.address < b.address ? -1 : 1) : a.balance > b.balance ? -1 : 1,
    )
}

async function readOr<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read()
  } catch {
    return undefined
  }
}

/** name / symbol / decimals / totalSupply as the node answers at endBlock. */
async function metadataFromNode(token: WorldToken) {
  const blockNumber = indexed.world.endBlock
  const address = token.address
  const read = (functionName: 'name' | 'symbol' | 'decimals' | 'totalSupply') =>
    readOr(() => client.readContract({ address, abi: erc20Abi, functionName, blockNumber }))
  if (token.kind === 'bytes32') {
    const bytes = (functionName: 'name' | 'symbol') =>
      client
        .readContract({ address, abi: bytes32Abi, functionName, blockNumber })
        .then((hex) => hexToString(hex, { size: 32 }).replace(/\0+$/, ''))
    return {
      name: await bytes('name'),
      symbol: await bytes('symbol'),
      decimals: (await read('decimals')) as number | undefined,
      totalSupply: (await read('totalSupply')) as bigint,
    }
  }
  return {
    name: (await read('name')) as string | undefined,
    symbol: (await read('symbol')) as string | undefined,
    decimals: (await read('decimals')) as number | undefined,
    totalSupply: (await read('totalSupply')) as bigint,
  }
}

describe.each(DIALECTS)('%s', (dialect) => {
  let testStore: TestStore
  let api: TestApi

  beforeAll(async () => {
    testStore = await createTestStore(dialect)
    await indexed.indexInto(testStore.store)
    api = await createTestApi({
      store: testStore.store,
      chains: [
        testChainConfig({ chainId: CHAIN_ID, rpc: [indexed.anvil.rpcUrl] }),
        // Enabled but never indexed: its native asset is still known.
        testChainConfig({ chainId: 137, rpc: ['http://127.0.0.1:1'] }),
      ],
      routes: [systemRoutes, tokensRoutes],
    })
  })
  afterAll(async () => {
    await api?.close()
    await testStore?.drop()
  })

  describe('token-info', () => {
    test('default: native', async () => {
      const res = await api.get(`/v1/evm/token-info/native?chain_ids=${CHAIN_ID}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('x-compute-units-cost')).toBe('2')
      expect(res.body).toEqual({
        contract_address: 'native',
        tokens: [{ chain_id: 1, chain: 'ethereum', symbol: 'ETH', name: 'Ether', decimals: 18 }],
      })
    })

    test('behavior: native asset of a chain that does not pay gas in ETH', async () => {
      const res = await api.get('/v1/evm/token-info/native?chain_ids=137')
      // The chain is configured but nothing of it is indexed: said, with what is known.
      expect(res.body).toEqual({
        contract_address: 'native',
        tokens: [{ chain_id: 137, chain: 'polygon', symbol: 'POL', name: 'POL', decimals: 18 }],
        warnings: [
          {
            code: 'CHAIN_NOT_INDEXED',
            message:
              'Chain 137 (polygon) has no indexed block yet: nothing indexed from it is in this answer until its indexer has committed a first batch (/v1/status shows its progress).',
            chain_ids: [137],
          },
        ],
      })
      const token = await api.get(`/v1/evm/token-info/${indexed.world.weth}?chain_ids=137`)
      expect(token.status).toBe(404)
    })

    test('behavior: every world ERC20 matches the node at endBlock', async () => {
      const tokens = indexed.world.tokens
      expect(tokens.length).toBeGreaterThan(5)
      for (const token of tokens) {
        const node = await metadataFromNode(token)
        // Upper case in the path: responses are lowercase.
        const res = await api.get(
          `/v1/evm/token-info/${token.address.toUpperCase().replace('0X', '0x')}?chain_ids=1`,
        )
        expect(res.status, token.kind).toBe(200)
        const expected: Record<string, unknown> = {
          chain_id: 1,
          chain: 'ethereum',
          total_supply: node.totalSupply.toString(),
        }
        if (node.name !== undefined) expected.name = node.name
        if (node.symbol !== undefined) expected.symbol = node.symbol
        if (node.decimals !== undefined) expected.decimals = node.decimals
        expect(res.body, `${token.kind} ${token.address}`).toEqual({
          contract_address: token.address.toLowerCase(),
          tokens: [expected],
        })
        if (token.symbol !== undefined) expect(res.body.tokens[0].symbol).toBe(token.symbol)
        if (token.decimals !== undefined) expect(res.body.tokens[0].decimals).toBe(token.decimals)
      }
    })

    test('behavior: odd tokens are shaped without the fields they lack', async () => {
      const byKind = (kind: WorldToken['kind']) =>
        indexed.world.tokens.filter((t) => t.kind === kind)
      const info = async (t: WorldToken) =>
        (await api.get(`/v1/evm/token-info/${t.address}?chain_ids=1`)).body.tokens[0]
      const [noName, noNameNoSymbol] = byKind('reverting_name')
      expect(await info(noName!)).toEqual({
        chain_id: 1,
        chain: 'ethereum',
        symbol: 'NONAME',
        decimals: 18,
        total_supply: expect.stringMatching(/^[0-9]+$/),
      })
      const bare = await info(noNameNoSymbol!)
      expect(bare).not.toHaveProperty('name')
      expect(bare).not.toHaveProperty('symbol')
      expect(bare.decimals).toBe(18)
      const noDecimals = await info(byKind('no_decimals')[0]!)
      expect(noDecimals).not.toHaveProperty('decimals')
      expect(noDecimals.symbol).toBe('NODEC')
      const bytes32 = await info(byKind('bytes32')[0]!)
      expect(bytes32.symbol).toBe('MKR')
      expect(bytes32.name).toMatch(/^[\x20-\x7e]+$/)
    })

    test('behavior: unsupported chain is 200 with a warning and no tokens', async () => {
      for (const chainId of [10, 999999]) {
        const res = await api.get(`/v1/evm/token-info/native?chain_ids=${chainId}`)
        expect(res.status).toBe(200)
        expect(res.body).toEqual({
          contract_address: 'native',
          tokens: [],
          warnings: [
            {
              code: 'UNSUPPORTED_CHAIN_IDS',
              message: `These chain ids are not supported here for this endpoint: ${chainId}.`,
              chain_ids: [chainId],
            },
          ],
        })
      }
    })

    test('args: historical_prices is validated; an unpriced token has no price fields', async () => {
      const token = indexed.world.tokens[1]!.address
      for (const value of ['1', '24,168', '1,2,3', ' 5 , 6 ', '01']) {
        const res = await api.get(
          `/v1/evm/token-info/${token}?chain_ids=1&historical_prices=${encodeURIComponent(value)}`,
        )
        expect(res.status, value).toBe(200)
        // This world's chain has no DEX factories configured: nothing is priced.
        expect(res.body.tokens[0]).not.toHaveProperty('price_usd')
        expect(res.body.tokens[0]).not.toHaveProperty('pool_size')
        expect(res.body.tokens[0].historical_prices).toEqual([])
      }
      for (const value of [
        '',
        '1,2,3,4',
        '-1',
        '0',
        '24,0',
        'a',
        '1.5',
        '1,,2',
        '١',
        '9'.repeat(30),
      ]) {
        const res = await api.get(
          `/v1/evm/token-info/${token}?chain_ids=1&historical_prices=${encodeURIComponent(value)}`,
        )
        expect(res.status, value).toBe(400)
        expect(res.body).toEqual({
          error: {
            code: 'BAD_REQUEST',
            message:
              'Invalid historical_prices: expected 1 to 3 comma-separated whole numbers of hours (1 or more).',
          },
        })
      }
    })

    test('args: limit and offset', async () => {
      const token = indexed.world.tokens[1]!.address.toLowerCase()
      const one = await api.get(`/v1/evm/token-info/${token}?chain_ids=1&limit=1`)
      expect(one.body.tokens).toHaveLength(1)
      expect(one.body).not.toHaveProperty('next_offset')
      const zero = await api.get(`/v1/evm/token-info/${token}?chain_ids=1&limit=0`)
      expect(zero.status).toBe(200)
      expect(zero.body.tokens).toEqual([])
      expect(typeof zero.body.next_offset).toBe('string')
      const next = await api.get(
        `/v1/evm/token-info/${token}?chain_ids=1&limit=5&offset=${zero.body.next_offset}`,
      )
      expect(next.body).toEqual(one.body)
      // A cursor of another query: first page plus a warning.
      const other = await api.get(
        `/v1/evm/token-info/native?chain_ids=1&offset=${zero.body.next_offset}`,
      )
      expect(other.body.tokens).toHaveLength(1)
      expect(other.body.warnings).toEqual([
        {
          code: 'INVALID_OFFSET',
          message: 'The offset was not issued for this query; the first page is returned.',
        },
      ])
      const junk = await api.get(`/v1/evm/token-info/${token}?chain_ids=1&offset=%F0%9F%92%A9`)
      expect(junk.body.tokens).toHaveLength(1)
      expect(junk.body.warnings[0].code).toBe('INVALID_OFFSET')
    })

    test('error: chain_ids missing, a list, a tag, a name or junk', async () => {
      const missing = await api.get('/v1/evm/token-info/native')
      expect(missing.status).toBe(400)
      expect(missing.body.error.code).toBe('BAD_REQUEST')
      expect(missing.body.error.message).toContain('chain_ids')
      for (const value of ['1,10', '1,1', 'default', 'mainnet', 'ethereum', '', 'é', '-1', '1.0']) {
        const res = await api.get(
          `/v1/evm/token-info/native?chain_ids=${encodeURIComponent(value)}`,
        )
        expect(res.status, value).toBe(400)
        expect(res.body).toEqual({
          error: {
            code: 'BAD_REQUEST',
            message:
              'Invalid chain_ids: this endpoint takes exactly one numeric chain id (no list, tag or chain name).',
          },
        })
      }
      const huge = await api.get(`/v1/evm/token-info/native?chain_ids=${'9'.repeat(40)}`)
      expect(huge.status).toBe(400)
    })

    test('error: bad address, unknown token, NFT contract', async () => {
      for (const bad of ['abc', '0x123', `0x${'g'.repeat(40)}`, 'NATIVE', `0x${'a'.repeat(41)}`]) {
        const res = await api.get(`/v1/evm/token-info/${bad}?chain_ids=1`)
        expect(res.status, bad).toBe(400)
        expect(res.body.error.code).toBe('BAD_REQUEST')
      }
      const unknown = `0x${'12'.repeat(20)}`
      const res = await api.get(`/v1/evm/token-info/${unknown}?chain_ids=1`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({
        error: { code: 'NOT_FOUND', message: `No ERC20 token ${unknown} is known on chain 1.` },
      })
      for (const nft of indexed.world.nfts) {
        const r = await api.get(`/v1/evm/token-info/${nft.address}?chain_ids=1`)
        expect(r.status, nft.standard).toBe(404)
      }
      for (const bad of ['-1', 'x', '1.5']) {
        const r = await api.get(`/v1/evm/token-info/native?chain_ids=1&limit=${bad}`)
        expect(r.status, bad).toBe(400)
      }
    })
  })

  describe('token-holders', () => {
    const walk = async (token: string, limit: number) => {
      const rows: any[] = []
      let offset: string | null = null
      for (let page = 0; page < 10_000; page++) {
        const res: { status: number; body: any } = await api.get(
          `/v1/evm/token-holders/1/${token}?limit=${limit}${offset ? `&offset=${offset}` : ''}`,
        )
        expect(res.status).toBe(200)
        expect(res.body.holders.length).toBeLessThanOrEqual(limit)
        rows.push(...res.body.holders)
        offset = res.body.next_offset
        if (offset === null) return rows
        expect(res.body.holders).toHaveLength(limit)
      }
      throw new Error('too many pages')
    }

    test('behavior: holders equal the node, ordered, summing to the supply', async () => {
      const demo = indexed.world.tokens.filter((t) => t.kind === 'erc20').slice(0, 2)
      const fee = indexed.world.tokens.filter((t) => t.kind === 'fee')
      expect(demo).toHaveLength(2)
      expect(fee).toHaveLength(1)
      for (const token of [...demo, ...fee]) {
        const expected = await holdersFromNode(token.address)
        expect(expected.length).toBeGreaterThan(2)
        const first = await api.get(`/v1/evm/token-holders/1/${token.address}`)
        expect(first.status).toBe(200)
        expect(first.headers.get('x-compute-units-cost')).toBe('2')
        expect(first.body.token_address).toBe(token.address.toLowerCase())
        expect(first.body.chain_id).toBe(1)
        expect(first.body.next_offset).toBeNull()
        expect(
          first.body.holders.map((h: any) => ({ address: h.wallet_address, balance: h.balance })),
        ).toEqual(expected.map((e) => ({ address: e.address, balance: e.balance.toString() })))
        for (const h of first.body.holders) {
          expect(h.first_acquired).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)
          expect(typeof h.has_initiated_transfer).toBe('boolean')
        }
        const supply = await client.readContract({
          address: token.address,
          abi: erc20Abi,
          functionName: 'totalSupply',
          blockNumber: indexed.world.endBlock,
        })
        const sum = first.body.holders.reduce((s: bigint, h: any) => s + BigInt(h.balance), 0n)
        expect(sum).toBe(supply)
        for (const limit of [1, 2, 7, 500]) {
          const rows = await walk(token.address, limit)
          expect(rows, `limit ${limit}`).toEqual(first.body.holders)
        }
      }
    })

    test('behavior: has_initiated_transfer follows the node’s Transfer logs', async () => {
      const token = indexed.world.tokens.find((t) => t.kind === 'erc20')!.address
      const logs = await client.getLogs({
        address: token,
        event: transferEvent,
        fromBlock: 0n,
        toBlock: indexed.world.endBlock,
      })
      const senders = new Set(logs.map((l) => l.args.from?.toLowerCase()))
      const { body } = await api.get(`/v1/evm/token-holders/1/${token}`)
      for (const h of body.holders)
        expect(h.has_initiated_transfer, h.wallet_address).toBe(senders.has(h.wallet_address))
    })

    test('args: limit above 500 is reduced; junk offset serves the first page', async () => {
      const token = indexed.world.tokens.find((t) => t.kind === 'erc20')!.address
      const all = await api.get(`/v1/evm/token-holders/1/${token}?limit=100000`)
      expect(all.status).toBe(200)
      const junk = await api.get(`/v1/evm/token-holders/1/${token}?offset=abc.def`)
      expect(junk.body).toEqual(all.body)
      const page = await api.get(`/v1/evm/token-holders/1/${token}?limit=1`)
      // The cursor of one token does not page another.
      const other = indexed.world.tokens.filter((t) => t.kind === 'erc20')[1]!.address
      const otherFirst = await api.get(`/v1/evm/token-holders/1/${other}?limit=2`)
      const crossed = await api.get(
        `/v1/evm/token-holders/1/${other}?limit=2&offset=${page.body.next_offset}`,
      )
      expect(crossed.body).toEqual(otherFirst.body)
    })

    test('error: bad parameters', async () => {
      const token = indexed.world.tokens.find((t) => t.kind === 'erc20')!.address
      for (const path of [
        `/v1/evm/token-holders/abc/${token}`,
        `/v1/evm/token-holders/1.5/${token}`,
        `/v1/evm/token-holders/0/${token}`,
        '/v1/evm/token-holders/1/0x123',
        '/v1/evm/token-holders/1/native',
        `/v1/evm/token-holders/1/${token}?limit=0`,
        `/v1/evm/token-holders/1/${token}?limit=-1`,
        `/v1/evm/token-holders/1/${token}?limit=x`,
        `/v1/evm/token-holders/1/${token}?limit=%C3%A9`,
      ]) {
        const res = await api.get(path)
        expect(res.status, path).toBe(400)
        expect(res.body.error.code, path).toBe('BAD_REQUEST')
      }
    })

    test('error: unsupported chain, unknown token, NFT → 404; an id past 2^53 → 400', async () => {
      const token = indexed.world.tokens.find((t) => t.kind === 'erc20')!.address.toLowerCase()
      for (const chainId of [10, 2020, 999999]) {
        const res = await api.get(`/v1/evm/token-holders/${chainId}/${token}`)
        expect(res.status, String(chainId)).toBe(404)
        expect(res.body).toEqual({
          error: {
            code: 'NOT_FOUND',
            message: `Token holders are not served for chain ${chainId}.`,
          },
        })
      }
      // Past 2^53 it cannot be a chain id (it read as 1e+20, a 404 naming "chain 1e+20").
      const huge = await api.get(`/v1/evm/token-holders/100000000000000000000/${token}`)
      expect(huge.status).toBe(400)
      expect(huge.body.error.message).toBe(
        'Invalid params parameter chain_id: must be <= 9007199254740991.',
      )
      const unknown = `0x${'34'.repeat(20)}`
      const res = await api.get(`/v1/evm/token-holders/1/${unknown}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({
        error: { code: 'NOT_FOUND', message: `No ERC20 token ${unknown} is known on chain 1.` },
      })
      for (const nft of indexed.world.nfts) {
        const r = await api.get(`/v1/evm/token-holders/1/${nft.address}`)
        expect(r.status, nft.standard).toBe(404)
      }
    })
  })
})
