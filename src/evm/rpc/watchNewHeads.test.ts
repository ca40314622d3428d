import { type ChildProcess, spawn } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { afterAll, expect, test } from 'vitest'
import { WebSocketServer } from 'ws'
import { freePort } from '../../../test/support/freePort.ts'
import { RpcResponseError } from './errors.ts'
import { watchNewHeads } from './watchNewHeads.ts'

// Small local launcher; the shared one will live in src/dev/.
const anvilBin = 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil'

const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) child.kill()
})

async function startAnvil(port: number) {
  const child = spawn(anvilBin, ['--port', String(port), '--silent'], { stdio: 'ignore' })
  children.push(child)
  for (
    let i = 0;
    i < 200 && (await rpc(port, 'eth_chainId').catch(() => undefined)) === undefined;
    i++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.kill()
      }),
  }
}

async function rpc(port: number, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${port}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await response.json()) as { result: unknown }).result
}

/** Mines until the watcher has seen a head: the subscription is live from then on. */
async function mineUntilSeen(port: number, seen: () => boolean) {
  for (let i = 0; i < 200 && !seen(); i++) {
    await rpc(port, 'evm_mine')
    await new Promise((r) => setTimeout(r, 25))
  }
  expect(seen()).toBe(true)
}

async function waitFor(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25))
  expect(check()).toBe(true)
}

test('default: reports mined heads, reconnects after the node restarts', async () => {
  const port = await freePort()
  let anvil = await startAnvil(port)
  const heads: Array<[bigint, string]> = []
  const errors: unknown[] = []
  const controller = new AbortController()
  const watching = watchNewHeads({
    url: `ws://127.0.0.1:${port}`,
    onHead: (number, hash) => heads.push([number, hash]),
    onError: (error) => errors.push(error),
    signal: controller.signal,
    retryDelayMs: 50,
  })

  await mineUntilSeen(port, () => heads.length > 0)
  heads.length = 0
  for (let i = 0; i < 3; i++) await rpc(port, 'evm_mine')
  await waitFor(() => heads.length === 3)
  const last = (await rpc(port, 'eth_getBlockByNumber', ['latest', false])) as {
    number: string
    hash: string
  }
  expect(heads[2]).toEqual([BigInt(last.number), last.hash])
  expect(heads.map(([n]) => n - heads[0]![0])).toEqual([0n, 1n, 2n])

  await anvil.stop()
  anvil = await startAnvil(port)
  await waitFor(() => errors.length > 0)
  heads.length = 0
  await mineUntilSeen(port, () => heads.length > 0)
  expect(errors[0]).toBeInstanceOf(Error)

  controller.abort()
  await watching
  await anvil.stop()
})

test('error: a node without subscriptions', async () => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  server.on('connection', (socket) =>
    socket.on('message', () =>
      socket.send('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'),
    ),
  )
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  const error = await watchNewHeads({
    url: `ws://127.0.0.1:${port}/secret`,
    onHead: () => {},
    signal: new AbortController().signal,
  }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(RpcResponseError)
  expect((error as Error).message.replace(String(port), 'PORT')).toMatchInlineSnapshot(
    `"RPC eth_subscribe on 127.0.0.1:PORT failed with code -32601: Method not found"`,
  )
  server.close()
})

test('behavior: returns when the signal aborts while disconnected', async () => {
  const port = await freePort()
  const controller = new AbortController()
  const watching = watchNewHeads({
    url: `ws://127.0.0.1:${port}`,
    onHead: () => {},
    signal: controller.signal,
  })
  setTimeout(() => controller.abort(), 100)
  await expect(watching).resolves.toBeUndefined()
})
