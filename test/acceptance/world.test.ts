import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildWorld, type World } from '../../src/dev/buildWorld.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { compareWithNode } from '../support/compareWithNode.ts'
import { createTestStore, DIALECTS } from '../support/createTestStore.ts'
import { digestStore } from '../support/digestStore.ts'
import { runIndexer, testChainConfig } from '../support/testChain.ts'

// Acceptance: on a generated world (≥ 50 wallets, ≥ 10 tokens with the odd ones, ≥ 2,000
// transfers with internal ETH, ERC721 and ERC1155), every balance, NFT and holder count equals
// what the node says at the indexed block, on SQLite and on PostgreSQL.
const CHAIN_ID = 1
let anvil: Anvil
let world: World

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID })
  world = await buildWorld({
    rpcUrl: anvil.rpcUrl,
    chainId: CHAIN_ID,
    wallets: 60,
    transfers: 2000,
  })
})
afterAll(async () => {
  await anvil?.stop()
})

describe('generated world', () => {
  const digests: Record<string, Record<string, string>> = {}

  for (const dialect of DIALECTS) {
    test(`default: every balance, NFT and holder count equals the node (${dialect})`, async () => {
      const t = await createTestStore(dialect)
      try {
        const indexer = createChainIndexer({
          chain: testChainConfig({ chainId: CHAIN_ID, rpc: [anvil.rpcUrl], batchSize: 50 }),
          store: t.store,
          logger: silentLogger(),
        })
        const run = runIndexer({ indexer, store: t.store })
        await run.synced({ block: Number(world.endBlock), timeoutMs: 120_000 })
        await run.stop()

        const { mismatches, checked } = await compareWithNode({
          store: t.store,
          rpcUrl: anvil.rpcUrl,
          chainId: CHAIN_ID,
          block: world.endBlock,
          wallets: world.wallets,
        })
        expect(mismatches).toEqual([])
        expect(checked.native).toBeGreaterThanOrEqual(50)
        expect(checked.supplies).toBeGreaterThanOrEqual(10)

        const kinds = await t.store.db
          .selectFrom('transfers')
          .select(['kind', t.store.db.fn.countAll<number>().as('n')])
          .groupBy('kind')
          .execute()
        const count = Object.fromEntries(kinds.map((k) => [k.kind, Number(k.n)]))
        expect(Object.values(count).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2000)
        expect(count.internal).toBeGreaterThan(0)
        expect(count.erc721).toBeGreaterThan(0)
        expect(count.erc1155).toBeGreaterThan(0)

        // The odd tokens are detected and read right.
        const tokens = await t.store.db.selectFrom('tokens').selectAll().execute()
        const byAddress = new Map(tokens.map((x) => [x.address, x]))
        for (const token of world.tokens) {
          const row = byAddress.get(token.address.toLowerCase())
          expect(row, token.kind).toBeDefined()
          if (token.kind === 'rebasing' || token.kind === 'fee') expect(row?.rebasing).toBe(1)
          if (token.kind === 'erc20') expect(row?.rebasing).toBe(0)
          if (token.kind === 'reverting_name') expect(row?.name).toBeNull()
          if (token.kind === 'bytes32') expect(row?.name).toMatch(/\w/)
          if (token.kind === 'no_decimals') expect(row?.decimals).toBeNull()
          if (token.symbol !== undefined) expect(row?.symbol).toBe(token.symbol)
        }
        digests[dialect] = await digestStore(t.store)
      } finally {
        await t.drop()
      }
    })
  }

  test('behavior: SQLite and PostgreSQL hold the same data', () => {
    expect(digests.sqlite).toBeDefined()
    expect(digests.postgres).toEqual(digests.sqlite)
  })
})
