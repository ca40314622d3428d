import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestApi, type TestApi } from '../../../test/support/createTestApi.ts'
import { createTestStore, type TestStore } from '../../../test/support/createTestStore.ts'
import { testChainConfig } from '../../../test/support/testChain.ts'

const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
let t: TestStore
let api: TestApi

beforeAll(async () => {
  t = await createTestStore('sqlite')
  // Configured, never indexed (no checkpoint): a first start before its first commit.
  api = await createTestApi({
    store: t.store,
    chains: [testChainConfig({ chainId: 1, rpc: ['http://127.0.0.1:9'] })],
  })
})
afterAll(async () => {
  await api?.close()
  await t?.drop()
})

test('behavior: a chain with no indexed block is said to be so (CHAIN_NOT_INDEXED), on both paths', async () => {
  for (const path of [`/v1/evm/defi/positions/${WALLET}`, `/beta/evm/defi/positions/${WALLET}`]) {
    const res = await api.get(`${path}?chain_ids=1`)
    expect(res.status, path).toBe(200)
    expect(res.body.positions, path).toEqual([])
    expect(res.body.warnings, path).toEqual([
      expect.objectContaining({ code: 'CHAIN_NOT_INDEXED', chain_ids: [1] }),
    ])
  }
})
