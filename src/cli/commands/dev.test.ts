import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { type AddressInfo, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, test } from 'vitest'
import { createStore } from '../../store/createStore.ts'
import { main } from '../main.ts'

const bin = fileURLToPath(new URL('../../../bin/scry.js', import.meta.url))
const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** `scry dev` as a person runs it: a child process, stdout read as it comes, Ctrl-C to stop. */
async function spawnDev(args: string[]) {
  const dataDir = await mkdtemp(join(tmpdir(), 'scry-dev-'))
  const child = spawn(
    process.execPath,
    [bin, 'dev', '--data-dir', dataDir, '--port', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
  cleanups.push(async () => {
    // Ctrl-C first: scry stops its anvils (their own process groups outlive a SIGKILL of it).
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT')
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    }
    await rm(dataDir, { recursive: true, force: true })
  })
  return {
    child,
    dataDir,
    exited,
    output: () => stdout,
    errors: () => stderr,
    async waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
      const until = Date.now() + timeoutMs
      while (Date.now() < until) {
        const match = pattern.exec(stdout)
        if (match) return match
        if (child.exitCode !== null) break
        await new Promise((r) => setTimeout(r, 100))
      }
      const log = await readFile(join(dataDir, 'dev.log'), 'utf8').catch(() => '')
      const tail = log.trim().split('\n').slice(-15).join('\n')
      throw new Error(
        `no ${pattern} in the output:\n${stdout}\nstderr:\n${stderr}\ndev.log (tail):\n${tail}`,
      )
    },
  }
}

async function blockNumber(rpcUrl: string): Promise<number> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  })
  return Number(BigInt(((await res.json()) as { result: string }).result))
}

async function stop(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
  child.kill('SIGINT')
  return exited
}

test('default', { timeout: 120_000 }, async () => {
  const dev = await spawnDev(['--chains', '8453'])
  const [, rpcUrl] = await dev.waitFor(
    /base \(8453\): anvil at (http:\/\/127\.0\.0\.1:\d+)/,
    30_000,
  )
  await dev.waitFor(/base \(8453\): 60 wallets, 12 tokens, .* transactions in \d+ blocks/, 60_000)
  await dev.waitFor(/Press Ctrl-C to stop\./, 90_000)
  await dev.waitFor(/ {2}base \(8453\) +\d+ +\d+ +\d+ +[\d,]+ +\d+\n/, 10_000)

  const databaseFile = join(dev.dataDir, 'dev.sqlite')
  const output = dev.output()
  expect(output).toContain(`database  ${databaseFile}`)
  expect(output).toContain(`log       ${join(dev.dataDir, 'dev.log')}`)
  expect(output).toContain('base (8453): following the head at block')
  expect(output).toContain(`npx scry status --database ${databaseFile} --rpc 8453=${rpcUrl}`)

  // The printed API key and curl commands work against the running API, and agree with the node.
  const [, apiUrl] = /API: (http:\/\/127\.0\.0\.1:\d+)/.exec(output) ?? []
  const [, apiKey] = /Dev API key: (scry_\S+)/.exec(output) ?? []
  const [, wallet] = /balances\/(0x[0-9a-f]{40})\?chain_ids=8453/.exec(output) ?? []
  expect([apiUrl, apiKey, wallet].every(Boolean)).toBe(true)
  const res = await fetch(`${apiUrl}/v1/evm/balances/${wallet}?chain_ids=8453&filter_type=native`, {
    headers: { 'X-Scry-Api-Key': apiKey! },
  })
  expect(res.status).toBe(200)
  const body = (await res.json()) as { balances: { address: string; amount: string }[] }
  expect(body.balances[0]?.address).toBe('native')

  // The printed DeFi call shows every kind of position the demo opened (values: defi*.test.ts).
  const [defiPath] = /\/v1\/evm\/defi\/positions\/0x[0-9a-f]{40}\?chain_ids=8453/.exec(output) ?? []
  expect(defiPath).toBeDefined()
  const defiRes = await fetch(`${apiUrl}${defiPath}`, { headers: { 'X-Scry-Api-Key': apiKey! } })
  expect(defiRes.status).toBe(200)
  const defi = (await defiRes.json()) as { positions: { type: string; token_type?: string }[] }
  expect(new Set(defi.positions.map((p) => p.token_type ?? p.type))).toEqual(
    new Set([
      'UniswapV2',
      'Nft',
      'NftV4',
      'Erc4626',
      'StETH',
      'WstETH',
      'AtokenV3',
      'AaveV3VariableDebt',
      'AtokenV2',
      'AaveV2VariableDebt',
    ]),
  )

  // The printed SVM call works against the Surfpool chains (offline, seeded).
  expect(output).toMatch(/solana: surfpool at http:\/\/127\.0\.0\.1:\d+ \(offline\)/)
  const [svmPath] = /\/beta\/svm\/balances\/\w+\?chains=all/.exec(output) ?? []
  expect(svmPath).toBeDefined()
  const svmRes = await fetch(`${apiUrl}${svmPath}`, { headers: { 'X-Scry-Api-Key': apiKey! } })
  expect(svmRes.status).toBe(200)
  const svmBody = (await svmRes.json()) as { balances: { chain: string; price_usd?: number }[] }
  expect(new Set(svmBody.balances.map((b) => b.chain))).toEqual(new Set(['solana', 'eclipse']))
  expect(svmBody.balances.some((b) => b.price_usd !== undefined)).toBe(true)

  const store = createStore({ url: databaseFile })
  try {
    // Backfill ends against the head it started from; the blocks the trickle mined meanwhile
    // follow within seconds. Then the checkpoint trails the head by a block or two at most.
    let lag = Number.POSITIVE_INFINITY
    for (const until = Date.now() + 30_000; Date.now() < until && lag > 2; ) {
      const checkpoint = await store.getCheckpoint(8453)
      lag = (await blockNumber(rpcUrl!)) - (checkpoint?.blockNumber ?? -1)
      if (lag > 2) await new Promise((r) => setTimeout(r, 250))
    }
    expect(lag).toBeLessThanOrEqual(2)
    expect(lag).toBeGreaterThanOrEqual(0)
    const balances = await store.db
      .selectFrom('native_balances')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('chain_id', '=', 8453)
      .executeTakeFirstOrThrow()
    expect(Number(balances.n)).toBeGreaterThanOrEqual(50)
  } finally {
    await store.close()
  }

  // The "Try:" status command works against the running dev database.
  const status = await main(['status', '--database', databaseFile, '--rpc', `8453=${rpcUrl}`], {
    out: () => {},
    err: () => {},
  })
  expect(status).toBe(0)

  expect(await stop(dev.child, dev.exited)).toBe(0)
  expect(dev.output()).toMatch(/\nstopped\n$/)
  expect(dev.errors()).not.toMatch(/error|warning/i)
  await expect(blockNumber(rpcUrl!)).rejects.toThrow()
})

test('behavior: Ctrl-C while the world is being built', { timeout: 60_000 }, async () => {
  const dev = await spawnDev(['--chains', '8453'])
  const [, rpcUrl] = await dev.waitFor(
    /base \(8453\): anvil at (http:\/\/127\.0\.0\.1:\d+)/,
    30_000,
  )
  await dev.waitFor(/base \(8453\): compiling and deploying contracts/, 10_000)
  expect(await stop(dev.child, dev.exited)).toBe(0)
  expect(dev.output()).toMatch(/\nstopped\n$/)
  expect(dev.output()).not.toContain('Indexing')
  await expect(blockNumber(rpcUrl!)).rejects.toThrow()
})

test('error: a port in use is said at once, before any chain is started', {
  timeout: 60_000,
}, async () => {
  const taken = createServer()
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise((resolve) => taken.close(() => resolve())))
  const port = (taken.address() as AddressInfo).port
  const asked = Date.now()
  const dev = await spawnDev(['--chains', '8453', '--port', String(port)])
  expect(await dev.exited).toBe(1)
  expect(Date.now() - asked).toBeLessThan(20_000)
  expect(dev.errors()).toContain(`Port ${port} on 127.0.0.1 is in use`)
  expect(dev.errors()).toContain('Pick another with --port')
  expect(dev.output()).not.toContain('anvil at')
})
