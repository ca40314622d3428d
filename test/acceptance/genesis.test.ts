import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Address, createPublicClient, type Hex, http, numberToHex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { createTestApi } from '../support/createTestApi.ts'
import { createTestStore, DIALECTS } from '../support/createTestStore.ts'
import { runIndexer, testChainConfig } from '../support/testChain.ts'

// Accounts funded at genesis that never transact (or whose only transactions a reorg takes
// away) are served with the node's balance: anvil's own dev accounts, and the alloc of a
// genesis.json the chain was started from. Both stores; reorgs down to block 1.
const CHAIN_ID = 1
const dir = mkdtempSync(join(tmpdir(), 'scry-genesis-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const ALLOC: Record<Address, bigint> = {
  '0x1111111111111111111111111111111111111111': 10n ** 21n,
  '0x2222222222222222222222222222222222222222': 12_345n,
  '0x3333333333333333333333333333333333333333': 7n * 10n ** 18n,
}
const genesisFile = join(dir, 'genesis.json')
beforeAll(() => {
  writeFileSync(
    genesisFile,
    JSON.stringify({
      config: {
        chainId: CHAIN_ID,
        ...Object.fromEntries(
          ['homestead', 'eip150', 'eip155', 'eip158', 'byzantium', 'constantinople']
            .concat(['petersburg', 'istanbul', 'berlin', 'london'])
            .map((fork) => [`${fork}Block`, 0]),
        ),
        shanghaiTime: 0,
        cancunTime: 0,
      },
      gasLimit: '0x1c9c380',
      difficulty: '0x0',
      alloc: {
        // Without 0x, hex and decimal balances, and a code-only account (no balance).
        '1111111111111111111111111111111111111111': { balance: numberToHex(10n ** 21n) },
        '0x2222222222222222222222222222222222222222': { balance: '12345' },
        '0x3333333333333333333333333333333333333333': { balance: numberToHex(7n * 10n ** 18n) },
        '0x4444444444444444444444444444444444444444': { balance: '0x0', code: '0x6000' },
      },
    }),
  )
})

/** Native balance as the API serves it, or undefined when it lists none. */
async function served(api: Awaited<ReturnType<typeof createTestApi>>, address: Address) {
  const res = await api.get(`/v1/evm/balances/${address}?chain_ids=${CHAIN_ID}`)
  expect(res.status).toBe(200)
  const native = res.body.balances.find((b: { address: string }) => b.address === 'native')
  return native === undefined ? undefined : BigInt(native.amount)
}

async function scenario({
  dialect,
  anvil,
  genesis,
  idle,
}: {
  dialect: (typeof DIALECTS)[number]
  anvil: Anvil
  genesis: string | undefined
  /** Funded at genesis; the test never sends from or to them. */
  idle: Address[]
}) {
  const node = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 })
  const rpc = <T>(method: string, params: unknown[] = []) =>
    node.request({ method, params } as never) as Promise<T>
  const [sender, receiver, reorged] = await rpc<Address[]>('eth_accounts')
  const t = await createTestStore(dialect)
  const chain = testChainConfig({ chainId: CHAIN_ID, rpc: [anvil.rpcUrl], genesis, batchSize: 2 })
  const api = await createTestApi({ store: t.store, chains: [chain] })
  const run = runIndexer({
    indexer: createChainIndexer({ chain, store: t.store, logger: silentLogger() }),
    store: t.store,
  })
  const synced = async () => {
    const head = await node.getBlock()
    await run.synced({ block: Number(head.number), hash: head.hash })
    return head.number
  }
  const expectServed = async (addresses: Address[], block: bigint) => {
    for (const address of addresses) {
      const balance = await node.getBalance({ address, blockNumber: block })
      expect(balance).toBeGreaterThan(0n)
      expect(await served(api, address), address).toBe(balance)
    }
  }
  try {
    // `reorged` transacts in blocks 1-3 only; a reorg of every block takes that away.
    for (let i = 0; i < 3; i++) {
      const hash = await rpc<Hex>('eth_sendTransaction', [
        { from: reorged, to: receiver, value: numberToHex(10n ** 18n) },
      ])
      await node.waitForTransactionReceipt({ hash })
    }
    await expectServed([...idle, reorged!], await synced())
    // Straight from the node: viem caches getBlockNumber, and a stale depth leaves blocks.
    const depth = Number(await rpc<Hex>('eth_blockNumber'))
    await rpc('anvil_reorg', [depth, [[{ from: sender, to: receiver, value: '0x1' }, 0]]])
    const after = await rpc<Hex>('eth_sendTransaction', [
      { from: sender, to: receiver, value: '0x2' },
    ])
    // Mined after the call returns: wait, or the head read next may be the block before.
    await node.waitForTransactionReceipt({ hash: after })
    const head = await synced()
    expect(await node.getBalance({ address: reorged!, blockNumber: head })).toBe(10n ** 22n)
    await expectServed([...idle, reorged!], head)
  } finally {
    await run.stop()
    await api.close()
    await t.drop()
  }
}

for (const dialect of DIALECTS) {
  describe(`genesis allocations (${dialect})`, () => {
    test("behavior: anvil's funded accounts are served from the first batch and survive a reorg of every block", async () => {
      const anvil = await startAnvil({ chainId: CHAIN_ID, accounts: 6 })
      try {
        const accounts = (await createPublicClient({ transport: http(anvil.rpcUrl) }).request({
          method: 'eth_accounts',
        } as never)) as Address[]
        await scenario({ dialect, anvil, genesis: undefined, idle: accounts.slice(3) })
      } finally {
        await anvil.stop()
      }
    })

    test('behavior: the alloc of a genesis.json named in config is served and survives a reorg of every block', async () => {
      const anvil = await startAnvil({ chainId: CHAIN_ID, genesisFile })
      try {
        await scenario({
          dialect,
          anvil,
          genesis: genesisFile,
          idle: Object.keys(ALLOC) as Address[],
        })
        // The code-only account with no balance is not listed.
      } finally {
        await anvil.stop()
      }
    })
  })
}
