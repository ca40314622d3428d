import pg from 'pg'
import { afterEach, describe, expect, test } from 'vitest'
import { createTestStore, DIALECTS, type TestStore } from '../../test/support/createTestStore.ts'
import { readAutovacuum } from './readAutovacuum.ts'

describe.each(DIALECTS)('readAutovacuum (%s)', (dialect) => {
  let t: TestStore | undefined
  afterEach(async () => {
    await t?.store.close()
    await t?.drop()
    t = undefined
  })

  test("is the server's setting on PostgreSQL, and undefined on SQLite", async () => {
    t = await createTestStore(dialect)
    const read = await readAutovacuum(t.store)
    if (dialect === 'sqlite') {
      expect(read).toBeUndefined()
      return
    }
    // Asked again over a connection of its own, the way psql would.
    const client = new pg.Client({ connectionString: t.url })
    await client.connect()
    try {
      const { rows } = await client.query<{ autovacuum: string }>('show autovacuum')
      expect(['on', 'off']).toContain(rows[0]?.autovacuum)
      expect(read).toBe(rows[0]?.autovacuum === 'on')
    } finally {
      await client.end()
    }
  })
})
