/**
 * SVM balances against a local Surfpool node: `/beta/svm/balances/{wallet}` req/s, p50, p99,
 * cold (mint facts and prices not yet known: every request reads mints, metadata accounts,
 * pool accounts and vaults from the node) and cached (only the wallet's own balance and token
 * accounts are read per request, as always).
 *
 * Env: BENCH_SVM_WALLETS (default 200), BENCH_SVM_COLD (cold requests, default 100),
 * BENCH_SECONDS (cached load, default 10), BENCH_CONNECTIONS (default 16).
 */
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { cpus, loadavg, platform, release } from 'node:os'
import { Keypair } from '@solana/web3.js'
import { createApiContext } from '../src/api/createApiContext.ts'
import { createApiServer } from '../src/api/createApiServer.ts'
import { API_ROUTES } from '../src/api/routes/apiRoutes.ts'
import { CHAIN_CATALOGUE } from '../src/chains/catalogue.ts'
import { silentLogger } from '../src/internal/logger.ts'
import { createStore } from '../src/store/createStore.ts'
import { createSvmChain, type SvmChain } from '../src/svm/createSvmChain.ts'
import { buildSvmWorld } from '../src/svm/dev/buildSvmWorld.ts'
import { encodeTokenAccount } from '../src/svm/dev/encodeAccounts.ts'
import { plantAccount } from '../src/svm/dev/plantAccount.ts'
import { startSurfpool } from '../src/svm/dev/startSurfpool.ts'
import { SVM_DEFAULTS } from '../src/svm/svmDefaults.ts'
import { createTestDatabase } from '../test/support/createTestStore.ts'
import { runLoad } from './support/runLoad.ts'

const settings = {
  wallets: Number(process.env.BENCH_SVM_WALLETS ?? 200),
  cold: Number(process.env.BENCH_SVM_COLD ?? 100),
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
}
const log = (line = '') => console.log(line)

async function main() {
  const cpu = cpus()
  log(
    `Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${platform()} ${release()}, node ${process.version}`,
  )
  log(
    `Load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  const node = startSurfpool()
  const database = await createTestDatabase('sqlite')
  const store = createStore({ url: database.url })
  let closeApi = async () => {}
  try {
    const t0 = performance.now()
    const world = await buildSvmWorld({
      chain: 'solana',
      rpcUrl: node.rpcUrl,
      wsUrl: node.wsUrl,
      payerSecretKey: node.payerSecretKey,
    })
    // More wallets, planted: lamports and 1–4 token accounts of the world's mints each.
    const wallets: string[] = [...world.wallets]
    const tokenMints = world.mints.map((m) => m)
    for (let i = 0; i < settings.wallets; i++) {
      const wallet = Keypair.generate().publicKey.toBase58()
      wallets.push(wallet)
      await plantAccount({
        rpcUrl: node.rpcUrl,
        address: wallet,
        owner: '11111111111111111111111111111111',
        data: Buffer.alloc(0),
        lamports: 1_000_000 + i,
      })
      if (i % 50 === 0) log(`  planted ${i} wallets`)
      for (let j = 0; j <= i % 4; j++) {
        const mint = tokenMints[(i + j) % tokenMints.length]!
        await plantAccount({
          rpcUrl: node.rpcUrl,
          address: Keypair.generate().publicKey.toBase58(),
          owner: mint.programId,
          data: encodeTokenAccount({ mint: mint.address, owner: wallet, amount: BigInt(1000 + i) }),
        })
      }
    }
    log(
      `World: surfpool (offline), ${wallets.length} wallets, ${world.mints.length} mints, ${world.pools.length} pools, built in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    )
    await store.migrate()
    const config = {
      name: 'solana' as const,
      rpc: [node.rpcUrl],
      usdcMint: SVM_DEFAULTS.solana.usdcMint,
      dexPrograms: SVM_DEFAULTS.solana.dexPrograms,
      // Surfpool refuses JSON-RPC batches
      rpcBatchSize: 1,
    }
    const svm = new Map<string, SvmChain>([['solana', createSvmChain({ config, store })]])
    const ctx = createApiContext({
      store,
      catalogue: CHAIN_CATALOGUE,
      chains: [],
      logger: silentLogger(),
      cursorSecret: randomBytes(32),
      svm,
    })
    const app = await createApiServer({ ctx, routes: API_ROUTES })
    await app.listen({ host: '127.0.0.1', port: 0 })
    closeApi = async () => {
      await app.close()
      await ctx.close()
      for (const chain of svm.values()) chain.close()
    }
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const { key } = await ctx.accounts.createKey({ name: 'bench' })
    const pick = () => wallets[Math.floor(Math.random() * wallets.length)]!

    // Cold: one request at a time, each on empty caches (new chain service, emptied tables).
    const cold: number[] = []
    for (let i = 0; i < settings.cold; i++) {
      svm.get('solana')!.close()
      svm.set('solana', createSvmChain({ config, store }))
      await store.db.deleteFrom('svm_tokens').execute()
      await store.db.deleteFrom('svm_prices').execute()
      const started = performance.now()
      const res = await fetch(`${url}/beta/svm/balances/${pick()}`, {
        headers: { 'X-Scry-Api-Key': key },
      })
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`cold request failed with ${res.status}`)
      cold.push(performance.now() - started)
    }
    cold.sort((a, b) => a - b)
    const mean = cold.reduce((a, b) => a + b, 0) / cold.length
    const at = (q: number) => cold[Math.min(cold.length - 1, Math.floor(q * cold.length))]!

    // Cached: warm every wallet's mints and prices once, then load with random wallets.
    await fetch(`${url}/beta/svm/balances/${wallets[0]}`, { headers: { 'X-Scry-Api-Key': key } })
    for (const wallet of wallets.slice(0, 20))
      await fetch(`${url}/beta/svm/balances/${wallet}`, { headers: { 'X-Scry-Api-Key': key } })
    const cached = await runLoad({
      name: 'cached',
      url,
      key,
      path: () => `/beta/svm/balances/${pick()}`,
      seconds: settings.seconds,
      connections: settings.connections,
    })

    log()
    log('GET /beta/svm/balances/{wallet}   req/s     p50 ms   p99 ms   requests  failures')
    log(
      `cold (sequential, empty caches)  ${(1000 / mean).toFixed(1).padStart(7)}  ${at(0.5).toFixed(1).padStart(8)}  ${at(0.99).toFixed(1).padStart(7)}  ${String(cold.length).padStart(9)}  ${'0'.padStart(8)}`,
    )
    log(
      `cached (${settings.connections} connections, ${settings.seconds} s)   ${cached.requestsPerSecond.toFixed(1).padStart(7)}  ${cached.p50.toFixed(1).padStart(8)}  ${cached.p99.toFixed(1).padStart(7)}  ${String(cached.requests).padStart(9)}  ${String(cached.failures).padStart(8)}`,
    )
    if (cached.failures > 0) {
      log(`First failure: ${JSON.stringify(cached.firstFailure ?? 'connection error or timeout')}`)
      process.exitCode = 1
    }
    log(
      `Load average at end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    )
  } finally {
    await closeApi()
    await store.close()
    await database.drop()
    node.stop()
  }
}

await main()
