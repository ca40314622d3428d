import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestApi, type TestApi } from '../../../test/support/createTestApi.ts'
import {
  createTestDatabase,
  createTestStore,
  type TestStore,
} from '../../../test/support/createTestStore.ts'
import { testChainConfig } from '../../../test/support/testChain.ts'
import { createStore, type Store } from '../../store/createStore.ts'

let primary: TestStore
let empty: Awaited<ReturnType<typeof createTestDatabase>>
let replica: Store
let api: TestApi

beforeAll(async () => {
  primary = await createTestStore('postgres')
  // A replica that answers but holds no Scry tables (a mistyped database, or a schema behind).
  empty = await createTestDatabase('postgres')
  replica = createStore({ url: empty.url, mustExist: true })
  api = await createTestApi({
    store: primary.store,
    chains: [testChainConfig({ chainId: 1, rpc: ['http://127.0.0.1:9'] })],
    overrides: { reads: replica },
  })
})
afterAll(async () => {
  await api?.close()
  await replica?.close()
  await empty?.drop()
  await primary?.drop()
})

test('error: /ready is 503 and says why when the read replica holds no Scry tables', async () => {
  const res = await api.get('/ready', { key: null })
  expect(res.status).toBe(503)
  expect(res.headers.get('retry-after')).toBe('5')
  expect(res.body.error.message).toMatch(
    /^The read replica \(databaseRead\): There is no Scry database at postgres:\/\//,
  )
})
