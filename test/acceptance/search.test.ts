import { type Address, createWalletClient, http } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ChainConfig } from '../../src/config/types.ts'
import { anvilAccounts } from '../../src/dev/anvilAccounts.ts'
import { compileContracts } from '../../src/dev/compileContracts.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { createPriceWorld, type PriceWorld } from '../support/createPriceWorld.ts'
import { createTestApi } from '../support/createTestApi.ts'
import { createTestStore, DIALECTS } from '../support/createTestStore.ts'
import { runIndexer, testChainConfig } from '../support/testChain.ts'

// Acceptance: the tokens of a world with Uniswap pools are found by part of their symbol or
// name, priced ones by pool size, and an airdropped look-alike of a priced token (same name
// and symbol, no pool, only its distributor ever sent it) ranks below it; on both stores.
const CHAIN_ID = 1
let anvil: Anvil
let w: PriceWorld
let chain: ChainConfig
let spam: Address

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID })
  w = await createPriceWorld(anvil)
  const compiled = await compileContracts()
  const wallet = createWalletClient({
    chain: { ...foundry, id: CHAIN_ID },
    transport: http(anvil.rpcUrl),
  })
  const hash = await wallet.deployContract({
    abi: compiled.DemoERC20.abi,
    bytecode: compiled.DemoERC20.bytecode,
    args: ['Token A', 'TKA', 18],
    account: w.deployer,
    chain: null,
  })
  const receipt = await w.pub.waitForTransactionReceipt({ hash })
  spam = receipt.contractAddress!.toLowerCase() as Address
  const abi = compiled.DemoERC20.abi
  await w.send({ to: spam, abi, functionName: 'mint', args: [w.deployer, 10n ** 24n] })
  for (const { address } of anvilAccounts(8).slice(2)) {
    await w.send({ to: spam, abi, functionName: 'transfer', args: [address, 10n ** 21n] })
  }
  chain = testChainConfig({
    chainId: CHAIN_ID,
    rpc: [anvil.rpcUrl],
    batchSize: 25,
    usdc: [w.usdc],
    wrappedNative: w.weth,
    dexFactories: [
      { type: 'uniswap_v2', address: w.v2Factory },
      { type: 'uniswap_v3', address: w.v3Factory },
    ],
  })
}, 180_000)
afterAll(async () => {
  await anvil?.stop()
})

describe('token search', () => {
  for (const dialect of DIALECTS) {
    test(`default: partial symbols and names, by pool size, the look-alike below (${dialect})`, async () => {
      const t = await createTestStore(dialect)
      const run = runIndexer({
        indexer: createChainIndexer({ chain, store: t.store, logger: silentLogger() }),
        store: t.store,
      })
      const api = await createTestApi({ store: t.store, chains: [chain] })
      try {
        const head = await w.pub.getBlock()
        await run.synced({ block: Number(head.number), hash: head.hash, timeoutMs: 120_000 })
        const search = async (query: string, extra = '') => {
          const res = await api.get(
            `/v1/evm/search/tokens?query=${encodeURIComponent(query)}${extra}`,
          )
          expect(res.status).toBe(200)
          return res
        }
        const poolSize = async (address: string) => {
          const res = await api.get(`/v1/evm/token-info/${address}?chain_ids=${CHAIN_ID}`)
          return res.body.tokens[0].pool_size as number | undefined
        }

        // By part of the symbol and of the name, any case: the real TKA first, its copy after.
        for (const query of ['tka', 'TK', 'oken a', ' Token A ']) {
          const res = await search(query)
          if (query.trim().length < 3) {
            expect(res.body).toEqual([])
            continue
          }
          expect(res.body.map((h: { address: string }) => h.address)).toEqual([w.tka, spam])
        }
        const res = await search('tka')
        expect(res.headers.get('x-compute-units-cost')).toBe('2')
        expect(res.body[0]).toEqual({
          chain_id: CHAIN_ID,
          address: w.tka,
          token_type: 'ERC20',
          symbol: 'TKA',
          name: 'Token A',
          logo: null,
          decimals: 18,
        })

        // "token" matches A, B, C and the copy: priced ones by pool size, then the copy.
        const tokens = (await search('token', '&limit=50')).body.map(
          (h: { address: string }) => h.address,
        )
        expect(new Set(tokens)).toEqual(new Set([w.tka, w.tkb, w.tkc, spam]))
        expect(tokens.at(-1)).toBe(spam)
        const sizes = await Promise.all(tokens.slice(0, -1).map(poolSize))
        expect(sizes.every((s: number | undefined) => s !== undefined)).toBe(true)
        expect(sizes).toEqual([...sizes].sort((a, b) => (b as number) - (a as number)))
        expect(await poolSize(spam)).toBeUndefined()

        // Limits and errors.
        expect((await search('token', '&limit=2')).body).toHaveLength(2)
        expect((await search('token', '&limit=0')).body).toHaveLength(1)
        expect((await search('token', '&limit=500')).body).toHaveLength(4)
        expect((await search('token', '&chain_ids=8453')).body).toEqual([])
        const missing = await api.get('/v1/evm/search/tokens')
        expect(missing.status).toBe(400)
        expect(missing.body).toEqual({
          error: { code: 'BAD_REQUEST', message: 'Invalid query: give the text to search for.' },
        })
        expect((await api.get('/v1/evm/search/tokens?query=%20%20')).status).toBe(400)
        for (const odd of ['tka%00', 'a%00b', '%00%00%00', 'tk%0Aa', 'tk%7Fa']) {
          const answer = await api.get(`/v1/evm/search/tokens?query=${odd}`)
          expect(answer.status, odd).toBe(400)
          expect(answer.body.error.message).toBe(
            'Invalid query: remove the control characters from it.',
          )
        }
        expect((await api.get('/v1/evm/search/tokens?query=tka&chain_ids=base')).status).toBe(400)
        expect((await api.get('/v1/evm/search/tokens?query=tka&limit=x')).status).toBe(400)
      } finally {
        await run.stop()
        await api.close()
        await t.drop()
      }
    })
  }
})
