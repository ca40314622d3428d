import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestStore, DIALECTS, type TestStore } from '../../test/support/createTestStore.ts'
import { runIndexer, testChainConfig } from '../../test/support/testChain.ts'
import { anvilAccounts } from '../dev/anvilAccounts.ts'
import { compileContracts } from '../dev/compileContracts.ts'
import { type AnvilActions, createAnvilActions } from '../dev/createAnvilActions.ts'
import { type Anvil, startAnvil } from '../dev/startAnvil.ts'
import { createRpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address } from '../evm/types.ts'
import { createChainIndexer } from '../indexer/createChainIndexer.ts'
import { silentLogger } from '../internal/logger.ts'
import { createNftMetadataWorker } from './createNftMetadataWorker.ts'

const CHAIN_ID = 31337
const [deployer, holder] = anvilAccounts(2).map((a) => a.address) as [Address, Address]

let anvil: Anvil
let actions: AnvilActions
let poisoned: Address
let good: Address

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID })
  actions = createAnvilActions({ rpcUrl: anvil.rpcUrl })
  const { DemoERC721 } = await compileContracts()
  // Its token URIs hold a NUL byte (any deployer may do that): `ipfs://bafy\0nul/<id>.json`.
  poisoned = await actions.deploy({
    from: deployer,
    artifact: DemoERC721,
    args: ['Poisoned', 'NUL', false, 'ipfs://bafy\u0000nul/'],
  })
  good = await actions.deploy({
    from: deployer,
    artifact: DemoERC721,
    args: ['Good', 'GOOD', true, ''],
  })
  for (const to of [poisoned, poisoned, poisoned, good]) {
    await actions.send({
      from: deployer,
      to,
      abi: DemoERC721.abi,
      functionName: 'mint',
      args: [holder],
    })
  }
}, 120_000)
afterAll(async () => {
  await anvil?.stop()
})

for (const dialect of DIALECTS)
  describe(`NFT metadata worker (${dialect})`, () => {
    let t: TestStore
    beforeAll(async () => {
      t = await createTestStore(dialect)
      const chain = testChainConfig({ chainId: CHAIN_ID, rpc: [anvil.rpcUrl] })
      const run = runIndexer({
        indexer: createChainIndexer({ chain, store: t.store, logger: silentLogger() }),
        store: t.store,
      })
      await run.synced({ block: Number((await actions.head()).blockNumber) })
      await run.stop()
    })
    afterAll(async () => {
      await t?.drop()
    })

    test('behavior: token URIs with a NUL byte are stored without it, and do not hold back the tokens queued behind them', async () => {
      const rpc = createRpcClient({ urls: [anvil.rpcUrl] })
      const worker = createNftMetadataWorker({
        store: t.store,
        rpcFor: () => rpc,
        logger: silentLogger(),
        // Nothing listens there: the poisoned documents fail to load (and would be retried).
        ipfsGateway: 'http://127.0.0.1:9/ipfs/',
        allowPrivate: true,
        timeoutMs: 1_000,
        // The three poisoned tokens fill the first rounds: the good one waits behind them.
        batchSize: 2,
      })
      try {
        for (let round = 0; round < 6; round++) await worker.tick()
      } finally {
        rpc.close()
      }
      const rows = await t.store.db
        .selectFrom('nft_metadata')
        .select(['contract', 'token_id', 'status', 'uri', 'name'])
        .orderBy('contract')
        .orderBy('token_id')
        .execute()
      const of = (contract: Address) => rows.filter((r) => r.contract === contract)
      expect(of(good)).toMatchObject([{ status: 'ok', name: 'Good #1' }])
      expect(of(poisoned)).toHaveLength(3)
      for (const row of of(poisoned)) {
        expect(row.status).not.toBe('ok')
        expect(row.uri).toMatch(/^ipfs:\/\/bafynul\/[123]\.json$/)
      }
    })
  })
