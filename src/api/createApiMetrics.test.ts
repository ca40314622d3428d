import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestStore, type TestStore } from '../../test/support/createTestStore.ts'
import type { ApiContext } from './apiContext.ts'
import { createApiMetrics } from './createApiMetrics.ts'

describe('createApiMetrics', () => {
  let primary: TestStore
  let other: TestStore
  beforeAll(async () => {
    primary = await createTestStore('postgres')
    other = await createTestStore('postgres')
  })
  afterAll(async () => {
    await primary?.drop()
    await other?.drop()
  })

  it('gives no replica lag sample when the read database is not a streaming standby', async () => {
    // A second primary as `databaseRead`: pg_is_in_recovery() is false, the lag unknown.
    const ctx = { store: primary.store, reads: other.store, chains: [] } as unknown as ApiContext
    const text = await createApiMetrics({ ctx }).render()
    expect(text).toContain('# TYPE scry_read_replica_lag_seconds gauge')
    expect(text).not.toMatch(/^scry_read_replica_lag_seconds /m)
  })
})
