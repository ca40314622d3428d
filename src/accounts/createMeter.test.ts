import { afterEach, describe, expect, test } from 'vitest'
import { createTestStore, DIALECTS, type TestStore } from '../../test/support/createTestStore.ts'
import { createMeter, currentPeriod } from './createMeter.ts'

for (const dialect of DIALECTS) {
  describe(`createMeter (${dialect})`, () => {
    let t: TestStore
    afterEach(async () => {
      await t.drop()
    })
    const used = async (accountId: string) =>
      Number(
        (
          await t.store.db
            .selectFrom('usage')
            .select('cu_used')
            .where('account_id', '=', accountId)
            .where('period', '=', currentPeriod())
            .executeTakeFirst()
        )?.cu_used ?? 0,
      )

    test('behavior: reservations stop at the quota; what is given back and what is unflushed count', async () => {
      t = await createTestStore(dialect)
      const meter = createMeter({ store: t.store, flushMs: 60_000 })
      try {
        expect(await meter.reserve({ accountId: 'a', cuQuota: 10, cost: 11 })).toBe(false)
        expect(await meter.reserve({ accountId: 'a', cuQuota: 10, cost: 4 })).toBe(true)
        expect(await meter.reserve({ accountId: 'a', cuQuota: 10, cost: 4 })).toBe(true)
        expect(await meter.reserve({ accountId: 'a', cuQuota: 10, cost: 4 })).toBe(false)
        expect(await used('a')).toBe(8)
        // A failed answer gives its reservation back; a charge not flushed yet still counts.
        meter.charge({ accountId: 'a', cost: -4 })
        meter.charge({ accountId: 'a', cost: 3 })
        expect(await meter.reserve({ accountId: 'a', cuQuota: 10, cost: 3 })).toBe(true)
        expect(await used('a')).toBe(10)
        expect(await meter.reserve({ accountId: 'a', cuQuota: 10, cost: 1 })).toBe(false)
        meter.charge({ accountId: 'b', cost: 5 })
        await meter.flush()
        expect([await used('a'), await used('b')]).toEqual([10, 5])
      } finally {
        await meter.close()
      }
    })
  })
}
