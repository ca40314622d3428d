/**
 * The API server of `bench/defi.ts`, in its own process so the load generator does not share
 * its event loop. Started with `fork`; sends `{ type: 'ready', url, key }` and closes on
 * `{ type: 'close' }`.
 *
 * Env: SCRY_BENCH_DB_URL (the indexed store), SCRY_BENCH_CHAINS (the chains' `ChainConfig`s as
 * JSON: their `defi` deployments and node URLs, which no config file can set yet).
 */
import type { ChainConfig } from '../../src/config/types.ts'
import { createStore } from '../../src/store/createStore.ts'
import { createTestApi } from '../../test/support/createTestApi.ts'

const store = createStore({ url: process.env.SCRY_BENCH_DB_URL ?? '' })
const chains = JSON.parse(process.env.SCRY_BENCH_CHAINS ?? '[]') as ChainConfig[]
const api = await createTestApi({ store, chains })
process.send?.({ type: 'ready', url: api.url, key: api.key })
process.on('message', async (message: { type: string }) => {
  if (message.type !== 'close') return
  await api.close()
  await store.close()
  process.send?.({ type: 'closed' })
  process.exit(0)
})
