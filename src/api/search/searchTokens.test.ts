import { CompiledQuery } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestStore, DIALECTS, type TestStore } from '../../../test/support/createTestStore.ts'
import type { BatchWrite } from '../../store/applyBatch.ts'
import type { StateChange } from '../../store/stateTables.ts'
import { toU256 } from '../../store/u256.ts'
import { searchTokens, searchTokensQuery } from './searchTokens.ts'

const CHAIN = 1
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}`
const [PRICED, SPAM, PLAIN, OTHER, NFT, FRESH, DEEP] = [1, 2, 3, 4, 5, 6, 7].map(addr) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
]

function token(address: string, symbol: string, name: string, standard = 'erc20'): StateChange {
  return {
    table: 'tokens',
    key: { chain_id: CHAIN, address },
    row: {
      chain_id: CHAIN,
      address,
      standard: standard as 'erc20',
      name,
      symbol,
      decimals: 18,
      total_supply: toU256(1000n),
      rebasing: 0,
      first_block: 1,
      block_number: 1,
    },
  }
}
function price(address: string, poolSize: number): StateChange {
  const row = {
    chain_id: CHAIN,
    token: address,
    parent: null,
    price: 1,
    pool: null,
    pool_size: poolSize,
    pool_size_usd: poolSize,
    block_number: 1,
    block_time: 1,
  }
  return { table: 'token_prices', key: { chain_id: CHAIN, token: address }, row }
}
function holding(token: string, holder: number, balance: bigint, sent: boolean): StateChange {
  const address = addr(1000 + holder)
  const row = {
    address,
    chain_id: CHAIN,
    token,
    balance: toU256(balance),
    first_acquired_time: 1,
    first_acquired_block: 1,
    has_initiated_transfer: sent ? 1 : 0,
    block_number: 1,
  }
  return { table: 'token_balances', key: { address, chain_id: CHAIN, token }, row }
}
function batch(block: number, state: StateChange[]): BatchWrite {
  const hash = (n: number) => `0x${String(Math.max(n, 0)).padStart(64, '0')}`
  return {
    chainId: CHAIN,
    fromBlock: block,
    toBlock: block,
    toHash: hash(block),
    keepUndo: true,
    blocks: [
      {
        chain_id: CHAIN,
        number: block,
        hash: hash(block),
        parent_hash: hash(block - 1),
        timestamp: block,
        miner: addr(0),
      },
    ],
    transactions: [],
    logs: [],
    addressTransactions: [],
    transfers: [],
    activity: [],
    state,
  }
}

for (const dialect of DIALECTS) {
  describe(`token search (${dialect})`, () => {
    let t: TestStore
    const search = (query: string, limit = 10) =>
      searchTokens({ db: t.store.db, caps: t.store.caps, query, chainIds: [CHAIN], limit }).then(
        (hits) => hits.map((h) => h.address),
      )

    beforeAll(async () => {
      t = await createTestStore(dialect)
      // Enough other tokens that reading them all costs the planner more than the index.
      await t.store.applyBatch({
        ...batch(
          0,
          Array.from({ length: 20_000 }, (_, i) => token(addr(10_000 + i), `F${i}`, `Filler ${i}`)),
        ),
        keepUndo: false,
      })
      await t.store.applyBatch(
        batch(1, [
          token(PRICED, 'DEMO', 'Demo Token'),
          price(PRICED, 5_000),
          holding(PRICED, 1, 5n, true),
          // Same name, many holders, but unpriced and only its airdropper ever sent it.
          token(SPAM, 'DEMO', 'Demo Token'),
          ...[1, 2, 3, 4].map((h) => holding(SPAM, h, 1n, h === 1)),
          token(PLAIN, 'DEMOX', 'Demo Token Two'),
          holding(PLAIN, 1, 1n, true),
          holding(PLAIN, 2, 1n, true),
          token(DEEP, 'DDEMO', 'Deep Demo'),
          price(DEEP, 90_000),
          token(OTHER, 'OTH', 'Other'),
          token(NFT, 'DNFT', 'Demo NFT', 'erc721'),
        ]),
      )
    })
    afterAll(async () => {
      await t?.drop()
    })

    test('default: by part of symbol or name, priced by pool size, then unpriced, spam last', async () => {
      expect(await search('demo')).toEqual([DEEP, PRICED, PLAIN, SPAM])
      expect(await search('  EMO TOK ')).toEqual([PRICED, PLAIN, SPAM])
      expect(await search('oth')).toEqual([OTHER])
      expect(await search('demo', 2)).toEqual([DEEP, PRICED])
    })

    test('behavior: fewer than 3 characters, NFTs and other chains match nothing', async () => {
      expect(await search('de')).toEqual([])
      expect(await search('nft')).toEqual([])
      expect(
        await searchTokens({
          db: t.store.db,
          caps: t.store.caps,
          query: 'demo',
          chainIds: [8453],
          limit: 10,
        }),
      ).toEqual([])
      expect(await search('100%')).toEqual([])
      expect(await search('"de"mo')).toEqual([])
    })

    test('behavior: new tokens appear with their batch and leave with its reorg', async () => {
      await t.store.applyBatch(
        batch(2, [
          token(FRESH, 'FRSH', 'Demo Fresh'),
          holding(FRESH, 1, 1n, true),
          holding(FRESH, 2, 1n, true),
          holding(SPAM, 5, 1n, true),
        ]),
      )
      // A second sender of the airdropped token: no longer spam, ranked by its 5 holders.
      expect(await search('demo')).toEqual([DEEP, PRICED, SPAM, PLAIN, FRESH])
      await t.store.revert({ chainId: CHAIN, toBlock: 1 })
      expect(await search('demo')).toEqual([DEEP, PRICED, PLAIN, SPAM])
      expect(await search('fresh')).toEqual([])
      const counts = await t.store.db
        .selectFrom('token_holder_counts')
        .selectAll()
        .where('token', '=', SPAM)
        .execute()
      expect(counts).toEqual([{ chain_id: CHAIN, token: SPAM, holders: 4, senders: 1 }])
    })

    test('behavior: the match is the trigram index, not a scan of tokens', async () => {
      const compiled = searchTokensQuery({
        db: t.store.db,
        caps: t.store.caps,
        text: 'demo',
        chainIds: [CHAIN],
        limit: 10,
      }).compile()
      const plan = await t.store.db.connection().execute(async (db) => {
        // Fresh statistics, as autovacuum keeps them.
        if (dialect === 'postgres') {
          await db.executeQuery(CompiledQuery.raw('analyze'))
          // PostgreSQL guesses LIKE '%…%' matches 0.8 % of rows, so at test size it would read
          // the table; a real store is large enough for the index. Rule the scan out here.
          await db.executeQuery(CompiledQuery.raw('set enable_seqscan = off'))
        }
        const prefix = dialect === 'sqlite' ? 'explain query plan ' : 'explain '
        const result = await db.executeQuery(
          CompiledQuery.raw(prefix + compiled.sql, [...compiled.parameters]),
        )
        if (dialect === 'postgres') await db.executeQuery(CompiledQuery.raw('reset enable_seqscan'))
        return result.rows.map((r) => Object.values(r as object).join(' ')).join('\n')
      })
      if (dialect === 'sqlite') expect(plan).toMatch(/SCAN token_search VIRTUAL TABLE INDEX/)
      else expect(plan).toMatch(/Bitmap Index Scan on tokens_search/)
    })
  })
}
