import { describe, expect, test } from 'vitest'
import { currentPeriod } from '../../src/accounts/createMeter.ts'
import { createPrng } from '../../src/dev/createPrng.ts'
import { createStore } from '../../src/store/createStore.ts'
import { createTestApi } from '../support/createTestApi.ts'
import { createTestStore } from '../support/createTestStore.ts'
import { testChainConfig } from '../support/testChain.ts'

// Acceptance (issue 12): two API replicas on one PostgreSQL database (each its own pool and
// meter, as two processes have), 2,000 concurrent requests of one key spread over both.
// Charged compute units equal the sum of the costs of the 2xx answers exactly, and the quota
// is never exceeded.
const REQUESTS = 2_000
const SEED = Number(process.env.SCRY_METER_SEED ?? Math.floor(Math.random() * 2 ** 31))

describe('metering across API replicas (postgres)', () => {
  test('behavior: charged CU equal the 2xx costs exactly and never pass the quota', async () => {
    const prng = createPrng(SEED)
    const where = `seed ${SEED}`
    const t = await createTestStore('postgres')
    const second = createStore({ url: t.url })
    const chains = [1, 8453].map((chainId) =>
      testChainConfig({ chainId, rpc: ['http://127.0.0.1:9'] }),
    )
    const a = await createTestApi({ store: t.store, chains })
    const b = await createTestApi({ store: second, chains })
    try {
      // Enough quota for about two thirds of what is asked, so both answers happen.
      const quota = 1_700
      const { key, info } = await a.ctx.accounts.createKey({ name: 'shared', cuQuota: quota })
      const wallet = '0x00000000000000000000000000000000000000aa'
      const paths = [
        `/v1/evm/balances/${wallet}?chain_ids=1`, // 1 CU
        `/v1/evm/balances/${wallet}?chain_ids=1,8453`, // 2 CU
        `/v1/evm/activity/${wallet}?chain_ids=1`,
        `/v1/evm/transactions/${wallet}?chain_ids=1,8453`,
      ]
      const answers = await Promise.all(
        Array.from({ length: REQUESTS }, () => {
          const api = prng.chance(0.5) ? a : b
          return api.get(prng.pick(paths), { key })
        }),
      )
      let charged = 0
      const statuses = new Map<number, number>()
      for (const r of answers) {
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
        if (r.status >= 200 && r.status < 300) {
          charged += Number(r.headers.get('x-compute-units-cost'))
        }
      }
      console.log(
        `metering: ${where}, statuses ${JSON.stringify([...statuses])}, charged ${charged}`,
      )
      expect([...statuses.keys()].sort(), where).toEqual([200, 402])

      await a.ctx.meter.flush()
      await b.ctx.meter.flush()
      const usage = await t.store.db
        .selectFrom('usage')
        .select('cu_used')
        .where('account_id', '=', info.accountId)
        .where('period', '=', currentPeriod())
        .executeTakeFirstOrThrow()
      expect(Number(usage.cu_used), where).toBe(charged)
      expect(charged, where).toBeLessThanOrEqual(quota)
      // Refused only when the quota was (nearly) used up: within the largest cost of it.
      expect(charged, where).toBeGreaterThan(quota - 2)
    } finally {
      await a.close()
      await b.close()
      await second.close()
      await t.drop()
    }
  }, 120_000)
})
