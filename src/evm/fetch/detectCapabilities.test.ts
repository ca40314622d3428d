import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Anvil, startAnvil } from '../../dev/startAnvil.ts'
import { createRpcClient, type RpcClient } from '../rpc/createRpcClient.ts'
import { detectCapabilities } from './detectCapabilities.ts'

let anvil: Anvil
let rpc: RpcClient
beforeAll(async () => {
  anvil = await startAnvil({ chainId: 1 })
  rpc = createRpcClient({ urls: [anvil.rpcUrl] })
})
afterAll(async () => {
  rpc?.close()
  await anvil?.stop()
})

test('default: anvil gives block receipts, both trace kinds, and live head state', async () => {
  const at = { rpc, blockNumber: 0n }
  expect(await detectCapabilities({ ...at, traces: 'auto' })).toEqual({
    receipts: 'block',
    traces: 'debug',
    liveHeadState: true,
  })
  expect(await detectCapabilities({ ...at, traces: 'parity' })).toMatchObject({ traces: 'parity' })
  expect(await detectCapabilities({ ...at, traces: 'off' })).toMatchObject({ traces: 'off' })
})
