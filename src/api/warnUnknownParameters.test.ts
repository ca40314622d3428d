import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApi, type TestApi } from '../../test/support/createTestApi.ts'
import { createTestStore, type TestStore } from '../../test/support/createTestStore.ts'
import { testChainConfig } from '../../test/support/testChain.ts'

const WALLET = '0x00000000000000000000000000000000000000aa'
let t: TestStore
let api: TestApi
let simKey: string

beforeAll(async () => {
  t = await createTestStore('sqlite')
  // Chain 999999 is not served: the answers are empty and need no node.
  api = await createTestApi({
    store: t.store,
    chains: [testChainConfig({ chainId: 1, rpc: ['http://127.0.0.1:1'] })],
  })
  simKey = (await api.ctx.accounts.createKey({ name: 'sim', profile: 'sim' })).key
})
afterAll(async () => {
  await api?.close()
  await t?.drop()
})

const unsupported = expect.objectContaining({ code: 'UNSUPPORTED_CHAIN_IDS' })

describe('unknown query parameters', () => {
  test('behavior: named in a warning where the answer has warnings, and otherwise ignored', async () => {
    const res = await api.get(`/v1/evm/balances/${WALLET}?chain_ids=999999&chain_id=1&foo=`)
    expect(res.status).toBe(200)
    expect(res.body.warnings).toEqual([
      unsupported,
      {
        code: 'UNKNOWN_PARAMETERS',
        message: expect.stringMatching(
          /^Ignored query parameters this endpoint does not take: chain_id, foo\. It takes: .*\bchain_ids\b/,
        ),
        parameters: ['chain_id', 'foo'],
      },
    ])
    // The sim profile's answer carries it too.
    const sim = await api.get(`/v1/evm/activity/${WALLET}?chain_ids=999999&chain_id=1`, {
      key: simKey,
    })
    expect(sim.status).toBe(200)
    expect(sim.body.warnings).toContainEqual(
      expect.objectContaining({ code: 'UNKNOWN_PARAMETERS', parameters: ['chain_id'] }),
    )
  })

  test('default: no warning without unknown parameters; errors are unchanged', async () => {
    const res = await api.get(`/v1/evm/balances/${WALLET}?chain_ids=999999&limit=5`)
    expect(res.body.warnings).toEqual([unsupported])
    const bad = await api.get(`/v1/evm/balances/${WALLET}?limit=0&chain_id=1`)
    expect(bad.status).toBe(400)
    expect(bad.body).not.toHaveProperty('warnings')
  })
})
