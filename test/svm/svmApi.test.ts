import { PublicKey } from '@solana/web3.js'
import { parse as parseLossless } from 'lossless-json'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseBlockNumbers } from '../../src/api/blockNumbersHeader.ts'
import { encodeBase58 } from '../../src/svm/base58.ts'
import { createSvmChain, type SvmChain } from '../../src/svm/createSvmChain.ts'
import { METAPLEX_METADATA_PROGRAM, NATIVE_MINT } from '../../src/svm/programIds.ts'
import type { SvmChainName } from '../../src/svm/svmDefaults.ts'
import { createCountingProxy } from '../support/createCountingProxy.ts'
import { callNode, createSvmTestWorld, type SvmTestChain } from '../support/createSvmTestWorld.ts'
import { createTestApi, type TestApi } from '../support/createTestApi.ts'
import { createTestStore, DIALECTS, type TestStore } from '../support/createTestStore.ts'

const TOKEN_PROGRAMS = [
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
]

let world: Awaited<ReturnType<typeof createSvmTestWorld>>
const chainOf = (name: SvmChainName) => world.chains.get(name) as SvmTestChain

beforeAll(async () => {
  world = await createSvmTestWorld()
  // Transactions are served from the store once finalized: wait until the node says so.
  const { node, world: solana } = chainOf('solana')
  for (let i = 0; i < 300; i++) {
    const infos = await callNode<{ confirmationStatus: string }[]>(
      node.rpcUrl,
      'getSignaturesForAddress',
      [solana.busyWallet, { commitment: 'confirmed' }],
    )
    if (infos.every((info) => info.confirmationStatus === 'finalized')) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
})

afterAll(() => world?.stop())

/** What the node itself says a wallet holds: lamports, and token amounts per mint. */
async function nodeHoldings(rpcUrl: string, wallet: string) {
  const lamports = await callNode<{ value: number }>(rpcUrl, 'getBalance', [
    wallet,
    { commitment: 'confirmed' },
  ])
  const tokens = new Map<string, bigint>()
  for (const programId of TOKEN_PROGRAMS) {
    const { value } = await callNode<{ value: any[] }>(rpcUrl, 'getTokenAccountsByOwner', [
      wallet,
      { programId },
      { encoding: 'jsonParsed', commitment: 'confirmed' },
    ])
    for (const { account } of value) {
      const info = account.data.parsed.info
      tokens.set(info.mint, (tokens.get(info.mint) ?? 0n) + BigInt(info.tokenAmount.amount))
    }
  }
  for (const [mint, amount] of tokens) if (amount === 0n) tokens.delete(mint)
  return { lamports: BigInt(lamports.value), tokens }
}

for (const dialect of DIALECTS) {
  describe(`svm api (${dialect})`, () => {
    let t: TestStore
    let api: TestApi
    let svm: Map<string, SvmChain>

    beforeAll(async () => {
      t = await createTestStore(dialect)
      svm = new Map(
        [...world.chains.values()].map(({ config }) => [
          config.name,
          createSvmChain({ config, store: t.store }),
        ]),
      )
      api = await createTestApi({ store: t.store, chains: [], overrides: { svm } })
    })

    afterAll(async () => {
      await api?.close()
      for (const chain of svm?.values() ?? []) chain.close()
      await t?.drop()
    })

    test('behavior: every balance of every wallet equals the node', async () => {
      for (const name of ['solana', 'eclipse'] as const) {
        const { node, world: w } = chainOf(name)
        for (const wallet of w.wallets) {
          const res = await api.get(`/beta/svm/balances/${wallet}?chains=${name}`)
          expect(res.status).toBe(200)
          const truth = await nodeHoldings(node.rpcUrl, wallet)
          const native = res.body.balances.filter((b: any) => b.address === 'native')
          expect(native).toHaveLength(1)
          expect(BigInt(native[0].amount)).toBe(truth.lamports)
          const tokens = new Map<string, bigint>(
            res.body.balances
              .filter((b: any) => b.address !== 'native')
              .map((b: any) => [b.address, BigInt(b.amount)]),
          )
          expect(tokens).toEqual(truth.tokens)
          expect(res.body.balances_count).toBe(res.body.balances.length)
          expect(res.body.wallet_address).toBe(wallet)
          for (const b of res.body.balances) {
            expect(b.chain).toBe(name)
            expect(b.raw_balance).toBe(b.amount)
          }
        }
      }
      // the wallet with two accounts of one mint gets one row with their sum
      const { world: w } = chainOf('solana')
      const dtk = w.mints.find((m) => m.label === 'DTK')!
      const res = await api.get(`/beta/svm/balances/${w.wallets[1]}`)
      const row = res.body.balances.find((b: any) => b.address === dtk.address)
      expect(row.amount).toBe(String(10_000_000n + 2_500_000n + 25_000_000n))
      expect(row.balance).toBe('37.5')
    })

    test('behavior: mint facts and metadata equal the accounts', async () => {
      const { node, world: w } = chainOf('solana')
      const seen = new Set<string>()
      for (const wallet of w.wallets) {
        const res = await api.get(`/beta/svm/balances/${wallet}`)
        for (const b of res.body.balances) {
          if (b.address === 'native') {
            expect(b).toMatchObject({ program_id: null, decimals: 9, uri: null, symbol: 'SOL' })
            continue
          }
          seen.add(b.address)
          const info = await callNode<any>(node.rpcUrl, 'getAccountInfo', [
            b.address,
            { encoding: 'jsonParsed', commitment: 'confirmed' },
          ])
          const parsed = info.value.data.parsed.info
          expect(b.program_id).toBe(info.value.owner)
          expect(b.decimals).toBe(parsed.decimals)
          expect(b.total_supply).toBe(parsed.supply)
          expect(b.mint_authority).toBe(parsed.mintAuthority ?? null)
          expect(b.balance).toBe(formatAmount(BigInt(b.amount), b.decimals))
          const tokenMetadata = parsed.extensions?.find(
            (e: any) => e.extension === 'tokenMetadata',
          )?.state
          const planted = w.mints.find((m) => m.address === b.address)?.metadata
          if (tokenMetadata) {
            // the node's own reading of the Token-2022 metadata extension
            expect({ name: b.name, symbol: b.symbol, uri: b.uri }).toEqual({
              name: tokenMetadata.name,
              symbol: tokenMetadata.symbol,
              uri: tokenMetadata.uri,
            })
          }
          if (planted) {
            expect({ name: b.name, symbol: b.symbol, uri: b.uri }).toEqual({
              name: planted.name,
              symbol: planted.symbol,
              uri: planted.uri,
            })
          } else {
            expect(b.name).toBeUndefined()
            expect(b.uri).toBeNull()
          }
          if (planted?.metadataAddress) {
            const [pda] = PublicKey.findProgramAddressSync(
              [
                Buffer.from('metadata'),
                new PublicKey(METAPLEX_METADATA_PROGRAM).toBuffer(),
                new PublicKey(b.address).toBuffer(),
              ],
              new PublicKey(METAPLEX_METADATA_PROGRAM),
            )
            expect(b.metadata_address).toBe(pda.toBase58())
          } else {
            expect(b.metadata_address).toBeUndefined()
          }
        }
      }
      // every kind of metadata was covered: Metaplex, extension, pointer, none
      for (const label of ['USDC', 'DTK', 'DEXT', 'DPTR', 'PLAIN'])
        expect(seen.has(w.mints.find((m) => m.label === label)!.address)).toBe(true)
    })

    test('behavior: prices are the pools’ own spot prices, native through wrapped', async () => {
      for (const name of ['solana', 'eclipse'] as const) {
        const { world: w } = chainOf(name)
        let priced = 0
        for (const wallet of w.wallets) {
          const res = await api.get(`/beta/svm/balances/${wallet}?chains=${name}`)
          for (const b of res.body.balances) {
            const mint = b.address === 'native' ? NATIVE_MINT : b.address
            const expected =
              mint === w.usdcMint
                ? { priceUsd: 1, poolAddress: null, poolType: null }
                : w.expectedPrices.get(mint)
            if (!expected) {
              expect(b.price_usd).toBeUndefined()
              expect(b.value_usd).toBeUndefined()
              expect(b.pool_type).toBeNull()
              continue
            }
            priced++
            expect(Math.abs(b.price_usd / expected.priceUsd - 1)).toBeLessThan(0.01)
            expect(b.pool_address).toBe(expected.poolAddress)
            expect(b.pool_type).toBe(expected.poolType)
            expect(b.value_usd).toBeCloseTo(Number(b.balance) * b.price_usd, 6)
            if (expected.poolAddress) expect(b.liquidity_usd).toBeGreaterThan(0)
          }
        }
        expect(priced).toBeGreaterThan(3)
      }
      // ordered by value_usd descending, unpriced last
      const res = await api.get(`/beta/svm/balances/${chainOf('solana').world.wallets[0]}`)
      const values = res.body.balances.map((b: any) => b.value_usd ?? -1)
      expect(values).toEqual([...values].sort((a: number, b: number) => b - a))
    })

    test('args: chains default, list and all, with the cost per chain', async () => {
      const wallet = chainOf('solana').world.wallets[0]
      const chainsOf = (body: any) => [...new Set(body.balances.map((b: any) => b.chain))]
      const byDefault = await api.get(`/beta/svm/balances/${wallet}`)
      expect(chainsOf(byDefault.body)).toEqual(['solana'])
      expect(byDefault.headers.get('x-compute-units-cost')).toBe('1')
      for (const chains of ['solana,eclipse', 'all', 'eclipse,solana,solana']) {
        const res = await api.get(`/beta/svm/balances/${wallet}?chains=${chains}`)
        expect(res.status).toBe(200)
        expect(chainsOf(res.body).sort()).toEqual(['eclipse', 'solana'])
        expect(res.headers.get('x-compute-units-cost')).toBe('2')
      }
      const eclipse = await api.get(`/beta/svm/balances/${wallet}?chains=eclipse`)
      expect(chainsOf(eclipse.body)).toEqual(['eclipse'])
      expect(eclipse.headers.get('x-compute-units-cost')).toBe('1')
      // The slot each chain was read at: at or below the node's slot right after.
      const both = await api.get(`/beta/svm/balances/${wallet}?chains=all`)
      const slots = parseBlockNumbers(both.headers.get('x-scry-block-numbers'))
      expect([...slots.keys()]).toEqual(['eclipse', 'solana'])
      for (const name of ['solana', 'eclipse'] as const) {
        const now = await callNode<number>(chainOf(name).node.rpcUrl, 'getSlot', [
          { commitment: 'confirmed' },
        ])
        expect(slots.get(name)).toBeGreaterThan(0)
        expect(slots.get(name)).toBeLessThanOrEqual(now)
      }
      // An address without transactions: nothing is fetched into the store for other tests.
      const quiet = encodeBase58(new Uint8Array(32).fill(7))
      const txs = await api.get(`/beta/svm/transactions/${quiet}`)
      expect(txs.status).toBe(200)
      expect(parseBlockNumbers(txs.headers.get('x-scry-block-numbers')).has('solana')).toBe(true)
      const bad = await api.get(`/beta/svm/balances/${wallet}?chains=bitcoin`)
      expect(bad.status).toBe(400)
      expect(bad.body).toMatchInlineSnapshot(`
        {
          "message": "Invalid chains: "bitcoin" is not one of solana, eclipse, all.",
        }
      `)
    })

    test('args: an empty chains value is the default, with its warning where Solana is off; unknown parameters are named', async () => {
      const wallet = chainOf('solana').world.wallets[0]
      const named = await api.get(`/beta/svm/balances/${wallet}?chain_ids=1&chains=solana`)
      expect(named.body.warnings).toEqual([
        expect.objectContaining({ code: 'UNKNOWN_PARAMETERS', parameters: ['chain_ids'] }),
      ])
      const eclipseOnly = await createTestApi({
        store: t.store,
        chains: [],
        overrides: { svm: new Map([['eclipse', svm.get('eclipse')!]]) },
      })
      try {
        const unsupported = {
          code: 'UNSUPPORTED_CHAINS',
          message: 'Not enabled on this instance: solana.',
          chains: ['solana'],
        }
        for (const query of ['', '?chains=', '?chains=,', '?chains=SOLANA']) {
          const res = await eclipseOnly.get(`/beta/svm/balances/${wallet}${query}`)
          expect(res.body, query).toEqual({
            processing_time_ms: expect.any(Number),
            wallet_address: wallet,
            balances_count: 0,
            balances: [],
            warnings: [unsupported],
          })
        }
        // `all` means the enabled ones: no warning.
        const all = await eclipseOnly.get(`/beta/svm/balances/${wallet}?chains=all`)
        expect(all.body.warnings).toBeUndefined()
      } finally {
        await eclipseOnly.close()
      }
    })

    test('behavior: balance pages cover the list once', async () => {
      const wallet = chainOf('solana').world.wallets[0]
      const full = await api.get(`/beta/svm/balances/${wallet}?chains=all`)
      const rows: any[] = []
      let offset: string | undefined
      for (let i = 0; i < 20; i++) {
        const res = await api.get(
          `/beta/svm/balances/${wallet}?chains=all&limit=2${offset ? `&offset=${offset}` : ''}`,
        )
        rows.push(...res.body.balances)
        offset = res.body.next_offset
        if (!offset) break
      }
      expect(rows.map((r) => `${r.chain}:${r.address}`)).toEqual(
        full.body.balances.map((r: any) => `${r.chain}:${r.address}`),
      )
    })

    test('error: an unparseable address is a 400 with {message}', async () => {
      for (const address of [
        'not-an-address',
        `0x${'ab'.repeat(20)}`,
        `O0Il${'1'.repeat(40)}`,
        '1'.repeat(300),
      ]) {
        const res = await api.get(`/beta/svm/balances/${address}`)
        expect(res.status).toBe(400)
        expect(Object.keys(res.body)).toEqual(['message'])
        expect(res.body.message).toMatch(/^Failed to parse address/)
        const tx = await api.get(`/beta/svm/transactions/${address}`)
        expect(tx.status).toBe(400)
        expect(Object.keys(tx.body)).toEqual(['message'])
      }
    })

    test('behavior: transactions page newest first, raw equals the node, finalized from the store', async () => {
      const { node, world: w } = chainOf('solana')
      const proxy = await createCountingProxy({ target: node.rpcUrl })
      const proxied = createSvmChain({
        config: { ...chainOf('solana').config, rpc: [proxy.url] },
        store: t.store,
      })
      const local = await createTestApi({
        store: t.store,
        chains: [],
        overrides: { svm: new Map([['solana', proxied]]) },
      })
      try {
        // The body read losslessly: raw_transaction must be the node's JSON to the last digit.
        const readAll = async () => {
          const items: any[] = []
          let offset: string | undefined
          for (let i = 0; i < 50; i++) {
            const res = await fetch(
              `${local.url}/beta/svm/transactions/${w.busyWallet}?limit=3${offset ? `&offset=${offset}` : ''}`,
              { headers: { 'X-Scry-Api-Key': local.key } },
            )
            expect(res.status).toBe(200)
            expect(res.headers.get('x-compute-units-cost')).toBe('1')
            const text = await res.text()
            const body = JSON.parse(text)
            const lossless = parseLossless(text) as any
            items.push(
              ...body.transactions.map((item: any, j: number) => ({
                ...item,
                raw_transaction: lossless.transactions[j].raw_transaction,
              })),
            )
            offset = body.next_offset
            if (!offset) break
          }
          return items
        }
        const first = await readAll()
        const signatures = await callNode<any[]>(node.rpcUrl, 'getSignaturesForAddress', [
          w.busyWallet,
          { commitment: 'confirmed' },
        ])
        const sigOf = (item: any) => item.raw_transaction.transaction.signatures[0]
        expect(first.map(sigOf)).toEqual(signatures.map((s) => s.signature))
        expect(new Set(first.map(sigOf)).size).toBe(first.length)
        expect(first.length).toBeGreaterThan(6)
        const slots = first.map((item) => item.block_slot)
        expect(slots).toEqual([...slots].sort((a, b) => b - a))
        expect(first.some((item) => sigOf(item) === w.failedSignature)).toBe(true)
        for (const [i, item] of first.entries()) {
          expect(item).toMatchObject({ address: w.busyWallet, chain: 'solana' })
          expect(item.block_time).toBe(signatures[i].blockTime * 1_000_000)
          const raw = await callNode(
            node.rpcUrl,
            'getTransaction',
            [
              sigOf(item),
              { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' },
            ],
            (text) => parseLossless(text),
          )
          expect(item.raw_transaction).toEqual(raw)
        }
        const failed = first.find((item) => sigOf(item) === w.failedSignature)
        expect(failed.raw_transaction.meta.err).not.toBeNull()

        const fetchedBefore = proxy.seen.get('getTransaction') ?? 0
        expect(fetchedBefore).toBeGreaterThanOrEqual(first.length)
        const second = await readAll()
        expect(second).toEqual(first)
        // every transaction was finalized: the second read did not ask the node for any
        expect(proxy.seen.get('getTransaction') ?? 0).toBe(fetchedBefore)
      } finally {
        await local.close()
        proxied.close()
        await proxy.close()
      }
    })

    test('error: a node that is down gives 503 {message:"Try again later"}', async () => {
      const down = createSvmChain({
        config: { ...chainOf('solana').config, rpc: ['http://127.0.0.1:9'] },
        store: t.store,
      })
      const local = await createTestApi({
        store: t.store,
        chains: [],
        overrides: { svm: new Map([['solana', down]]) },
      })
      try {
        const wallet = chainOf('solana').world.wallets[0]
        for (const path of [`/beta/svm/balances/${wallet}`, `/beta/svm/transactions/${wallet}`]) {
          const res = await local.get(path)
          expect(res.status).toBe(503)
          expect(res.body).toEqual({ message: 'Try again later' })
          expect(res.headers.get('retry-after')).toBe('5')
        }
      } finally {
        await local.close()
        down.close()
      }
    })
  })
}

function formatAmount(amount: bigint, decimals: number): string {
  const text = amount.toString().padStart(decimals + 1, '0')
  const whole = text.slice(0, text.length - decimals)
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole
}
