/**
 * The API server of `bench/api.ts`, in its own process so the load generator does not share
 * its event loop. Started with `fork`; talks over IPC (see `BenchServerMessage`).
 *
 * Env: SCRY_BENCH_DB_URL (the filled store), SCRY_BENCH_CHAIN_ID.
 */
import type { AddressInfo } from 'node:net'
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely'
import { Type } from 'typebox'
import { createApiContext } from '../../src/api/createApiContext.ts'
import { createApiServer, type RouteModule } from '../../src/api/createApiServer.ts'
import { API_ROUTES } from '../../src/api/routes/apiRoutes.ts'
import { CHAIN_CATALOGUE } from '../../src/chains/catalogue.ts'
import { CHAIN_DEFAULTS } from '../../src/config/fields.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { dexDeployment } from '../../src/prices/dexDeployments.ts'
import { createStore } from '../../src/store/createStore.ts'

/** Parent → server. */
export type BenchServerCommand = { type: 'capture' } | { type: 'explain' } | { type: 'close' }

/** Server → parent. */
export type BenchServerMessage =
  | { type: 'ready'; url: string; key: string }
  | { type: 'plans'; plans: QueryPlan[] }
  | { type: 'closed' }

export type QueryPlan = {
  sql: string
  parameters: unknown[]
  plan: string[]
  /** Mean time of one execution, measured here after a warm-up run. */
  ms: number
}

/** The reference route: no key, no store, the same server and hooks. */
export const bareRoutes: RouteModule = (app) => {
  app.get(
    '/bench/bare',
    {
      config: { public: true },
      schema: { hide: true, response: { 200: Type.Object({ ok: Type.Boolean() }) } },
    },
    async () => ({ ok: true }),
  )
}

/** Tables the benched endpoints read; other queries (keys, metering) are not explained. */
const DATA_TABLES =
  /"(activity|address_transactions|transactions|logs|token_balances|tokens|native_balances|approvals)"/

async function main() {
  const url = process.env.SCRY_BENCH_DB_URL
  const chainId = Number(process.env.SCRY_BENCH_CHAIN_ID ?? 1)
  if (!url) throw new Error('SCRY_BENCH_DB_URL is not set')
  const store = createStore({ url })

  // Records the compiled SQL of the routes' queries while `capturing`.
  let capturing = false
  const captured = new Map<string, CompiledQuery>()
  const capture: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      if (capturing) {
        const compiled = store.db.getExecutor().compileQuery(node as RootOperationNode, queryId)
        if (DATA_TABLES.test(compiled.sql) && !captured.has(compiled.sql)) {
          captured.set(compiled.sql, compiled)
        }
      }
      return node
    },
    async transformResult({ result }) {
      return result
    },
  }

  const ctx = createApiContext({
    store: { ...store, db: store.db.withPlugin(capture) },
    catalogue: CHAIN_CATALOGUE,
    chains: [
      {
        ...CHAIN_DEFAULTS,
        ...dexDeployment(chainId),
        chainId,
        name: CHAIN_CATALOGUE.find((c) => c.chainId === chainId)?.name ?? `chain_${chainId}`,
        // Never called: the API only reads the store.
        rpc: ['http://127.0.0.1:9'],
        expectedChainId: chainId,
      },
    ],
    logger: silentLogger(),
  })
  const app = await createApiServer({ ctx, routes: [...API_ROUTES, bareRoutes] })

  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as AddressInfo
  const { key } = await ctx.accounts.createKey({ name: 'bench' })
  const send = (message: BenchServerMessage) => process.send?.(message)
  send({ type: 'ready', url: `http://127.0.0.1:${port}`, key })

  process.on('message', async (command: BenchServerCommand) => {
    switch (command.type) {
      case 'capture':
        captured.clear()
        capturing = true
        return
      case 'explain':
        capturing = false
        send({ type: 'plans', plans: await explainAll([...captured.values()]) })
        return
      case 'close':
        await app.close()
        await ctx.close()
        await store.close()
        send({ type: 'closed' })
        process.disconnect()
        return
      default: {
        const never: never = command
        throw new Error(`unknown command ${JSON.stringify(never)}`)
      }
    }
  })

  async function explainAll(queries: CompiledQuery[]): Promise<QueryPlan[]> {
    const plans: QueryPlan[] = []
    for (const query of queries) {
      const explain =
        store.dialect === 'sqlite'
          ? `explain query plan ${query.sql}`
          : `explain (analyze, buffers) ${query.sql}`
      const { rows } = await store.db.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(explain, [...query.parameters]),
      )
      const plan =
        store.dialect === 'sqlite' ? sqlitePlan(rows) : rows.map((r) => String(r['QUERY PLAN']))
      const runs = 20
      await store.db.executeQuery(CompiledQuery.raw(query.sql, [...query.parameters]))
      const started = performance.now()
      for (let i = 0; i < runs; i++) {
        await store.db.executeQuery(CompiledQuery.raw(query.sql, [...query.parameters]))
      }
      plans.push({
        sql: query.sql,
        parameters: [...query.parameters],
        plan,
        ms: (performance.now() - started) / runs,
      })
    }
    return plans
  }
}

/** EXPLAIN QUERY PLAN rows as an indented tree. */
function sqlitePlan(rows: Record<string, unknown>[]): string[] {
  const depth = new Map<number, number>()
  return rows.map((r) => {
    const level = (depth.get(Number(r.parent)) ?? -1) + 1
    depth.set(Number(r.id), level)
    return `${'  '.repeat(level)}${String(r.detail)}`
  })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
