import { parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { isDataRoute, parseBlockNumbers } from '../../src/api/blockNumbersHeader.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { PERMIT2_ADDRESS } from '../../src/evm/approvals/permit2.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { type ApprovalWorld, createApprovalWorld } from '../support/createApprovalWorld.ts'
import { createTestApi, type TestApi } from '../support/createTestApi.ts'
import { createTestStore, DIALECTS } from '../support/createTestStore.ts'
import { runIndexer, testChainConfig } from '../support/testChain.ts'

// Acceptance: after random approve / EIP-2612 permit / transferFrom / Permit2 approve, permit,
// transferFrom and lockdown / setApprovalForAll, every approval the API lists equals the
// node's allowance or isApprovedForAll at the indexed block, nothing non-zero is missing, and
// a reorg that drops approvals takes them out of the answer; on SQLite and PostgreSQL.
const CHAIN_ID = 1
let anvil: Anvil
let w: ApprovalWorld

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID })
  w = await createApprovalWorld(anvil)
  await w.act(150, 1)
}, 180_000)
afterAll(async () => {
  await anvil?.stop()
})

type Listed = { key: string; allowance: bigint; item: Record<string, unknown> }

/** Every approval of every wallet, paging 7 at a time. */
async function listAll(api: TestApi): Promise<Listed[]> {
  const out: Listed[] = []
  for (const { address } of w.wallets) {
    let offset: string | undefined
    do {
      const page = await api.get(
        `/v1/evm/approvals/${address}?chain_ids=${CHAIN_ID}&limit=7${offset ? `&offset=${offset}` : ''}`,
      )
      expect(page.status).toBe(200)
      expect(page.headers.get('x-compute-units-cost')).toBe('1')
      for (const item of page.body.approvals) {
        const kind = item.type === 'approval_for_all' ? 'operator' : item.type
        out.push({
          key: `${address}|${item.token_address}|${item.spender}|${kind}`,
          allowance: item.allowance === undefined ? 1n : BigInt(item.allowance),
          item,
        })
      }
      offset = page.body.next_offset
    } while (offset)
  }
  return out
}

async function checkAgainstNode(api: TestApi, block: bigint) {
  const listed = await listAll(api)
  const node = await w.nodeApprovals(block)
  expect(listed.length).toBe(new Set(listed.map((l) => l.key)).size)
  expect(new Map(listed.map((l) => [l.key, l.allowance]))).toEqual(node)
  // Value at risk where priced (the USD anchor): min(allowance, balance), in dollars.
  for (const l of listed.filter((x) => x.item.token_address === w.usd)) {
    const owner = l.key.split('|')[0] as `0x${string}`
    const balance = (await w.pub.readContract({
      address: w.usd,
      abi: [
        {
          type: 'function',
          name: 'balanceOf',
          stateMutability: 'view',
          inputs: [{ name: 'a', type: 'address' }],
          outputs: [{ name: '', type: 'uint256' }],
        },
      ],
      functionName: 'balanceOf',
      args: [owner],
      blockNumber: block,
    })) as bigint
    // biome-ignore lint/complexity/useMathMinMax: bigints (Math.min takes numbers)
    const atRisk = l.allowance < balance ? l.allowance : balance
    expect(l.item.value_at_risk_usd).toBeCloseTo(Number(atRisk) / 1e6, 6)
  }
  // A Permit2 allowance's expiration is the node's, as RFC 3339 time; null past the year 9999.
  for (const l of listed.filter((x) => x.item.type === 'permit2')) {
    const [owner, token, spender] = l.key.split('|') as `0x${string}`[]
    const [, expiration] = (await w.pub.readContract({
      address: PERMIT2_ADDRESS,
      abi: parseAbi([
        'function allowance(address, address, address) view returns (uint160, uint48, uint48)',
      ]),
      functionName: 'allowance',
      args: [owner!, token!, spender!],
      blockNumber: block,
    })) as readonly [bigint, number, number]
    expect(l.item.expiration, l.key).toBe(
      expiration >= Date.UTC(10000, 0, 1) / 1000
        ? null
        : new Date(expiration * 1000).toISOString().replace('.000Z', '+00:00'),
    )
  }
  return { listed, node }
}

describe('approvals', () => {
  for (const dialect of DIALECTS) {
    test(`default: approvals equal the node, none missing, reorgs undo; every data answer says its block (${dialect})`, async () => {
      const t = await createTestStore(dialect)
      const chain = testChainConfig({
        chainId: CHAIN_ID,
        rpc: [anvil.rpcUrl],
        usdc: [w.usd],
        batchSize: 25,
      })
      const run = runIndexer({
        indexer: createChainIndexer({ chain, store: t.store, logger: silentLogger() }),
        store: t.store,
      })
      const api = await createTestApi({ store: t.store, chains: [chain] })
      try {
        const head = await w.pub.getBlock()
        await run.synced({ block: Number(head.number), hash: head.hash, timeoutMs: 120_000 })
        const before = await checkAgainstNode(api, head.number)
        expect(before.listed.length).toBeGreaterThan(20)
        const kinds = new Set(before.listed.map((l) => l.item.type))
        expect(kinds).toEqual(new Set(['erc20', 'permit2', 'approval_for_all']))
        // Permit2 expirations of both kinds: a date, and "never" (null).
        const expirations = before.listed.filter((l) => l.item.type === 'permit2')
        expect(new Set(expirations.map((l) => l.item.expiration === null))).toEqual(
          new Set([true, false]),
        )
        expect(
          before.listed.some((l) => l.item.unlimited === true && l.item.type === 'erc20'),
        ).toBe(true)
        const first = before.listed[0]!.item
        expect(first).toMatchObject({ chain: 'ethereum', chain_id: CHAIN_ID })
        expect(first.tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
        expect(first.block_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)

        // An operator approval's activity item says its token's standard (ApprovalForAll is
        // one event in ERC721 and ERC1155), so the asset_type filter finds it.
        const operator = before.listed.find((l) => l.item.type === 'approval_for_all')!
        const [owner, token] = operator.key.split('|')
        const standard = String(operator.item.token_standard).toLowerCase()
        expect(['erc721', 'erc1155']).toContain(standard)
        const approvesOf = async (query: string) =>
          (
            await api.get(`/v1/evm/activity/${owner}?activity_type=approve&${query}&limit=1000`)
          ).body.activity.filter((a: any) => a.token_address === token)
        const unfiltered = await approvesOf('chain_ids=1')
        expect(unfiltered.length).toBeGreaterThan(0)
        expect(await approvesOf(`asset_type=${standard}`)).toEqual(unfiltered)

        // The answer says at which block it was read, as /v1/status does.
        const status = await api.get('/v1/status')
        const one = await api.get(`/v1/evm/approvals/${w.wallets[0]!.address}?chain_ids=1`)
        expect(parseBlockNumbers(one.headers.get('x-scry-block-numbers'))).toEqual(
          new Map([['1', status.body.chains[0].indexed_block]]),
        )

        // Every EVM data endpoint says at which block it read each chain, as /v1/status does.
        const spec = await api.get('/openapi.json', { key: null })
        const dataPaths = Object.keys(spec.body.paths).filter(
          (p) => spec.body.paths[p].get && isDataRoute({ method: 'GET', url: p }),
        )
        const evmPaths = dataPaths.filter(
          (p) => p.startsWith('/v1/evm/') || p.startsWith('/beta/evm/'),
        )
        expect(evmPaths.length).toBeGreaterThanOrEqual(10)
        const indexed = new Map([[String(CHAIN_ID), status.body.chains[0].indexed_block]])
        for (const path of evmPaths) {
          const url = path
            .replace('{address}', path.includes('token-') ? w.usd : w.wallets[0]!.address)
            .replace('{token_address}', w.usd)
            .replace('{chain_id}', String(CHAIN_ID))
          const query = path.includes('/search/') ? 'query=token&' : ''
          const res = await api.get(`${url}?${query}chain_ids=${CHAIN_ID}`)
          expect(res.status, path).toBe(200)
          expect(parseBlockNumbers(res.headers.get('x-scry-block-numbers')), path).toEqual(indexed)
          const documented = spec.body.paths[path].get.responses['200'].headers
          expect(documented['X-Scry-Block-Numbers'], path).toBeDefined()
        }

        // A reorg: the node drops its last blocks and builds another branch.
        await w.pub.request({ method: 'anvil_rollback' as never, params: [4] as never })
        const tip = await w.act(12, dialect === 'sqlite' ? 101 : 202)
        const after = await w.pub.getBlock({ blockNumber: tip })
        await run.synced({ block: Number(after.number), hash: after.hash, timeoutMs: 60_000 })
        const reorged = await checkAgainstNode(api, after.number)
        expect(reorged.node).not.toEqual(before.node)
      } finally {
        await run.stop()
        await api.close()
        await t.drop()
      }
    })
  }
})
