import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { encodeBase58 } from '../../src/svm/base58.ts'
import { type Surfpool, startSurfpool } from '../../src/svm/dev/startSurfpool.ts'
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../src/svm/programIds.ts'
import { createSvmRpc } from '../../src/svm/rpc/createSvmRpc.ts'
import { createCountingProxy } from '../support/createCountingProxy.ts'
import { callNode } from '../support/createSvmTestWorld.ts'

let node: Surfpool
beforeAll(() => {
  node = startSurfpool()
})
afterAll(() => node?.stop())

test('behavior: a node that refuses batches is then called one request at a time', async () => {
  const proxy = await createCountingProxy({ target: node.rpcUrl })
  const rpc = createSvmRpc({ urls: [proxy.url], batchSize: 50 })
  try {
    // 150 addresses: two getMultipleAccounts calls, sent as one batch that Surfpool refuses
    const addresses = [
      TOKEN_PROGRAM,
      TOKEN_2022_PROGRAM,
      ...Array.from({ length: 148 }, () => encodeBase58(randomBytes(32))),
    ]
    const accounts = await rpc.getMultipleAccounts(addresses)
    expect(accounts).toHaveLength(150)
    const direct = await callNode<{ value: { owner: string } }>(node.rpcUrl, 'getAccountInfo', [
      TOKEN_PROGRAM,
      { encoding: 'base64' },
    ])
    expect(accounts[0]?.owner).toBe(direct.value.owner)
    expect(accounts[1]?.owner).toBe(direct.value.owner)
    const before = proxy.seen.get('getMultipleAccounts') ?? 0
    await rpc.getMultipleAccounts(addresses)
    // no batch attempt the second time: exactly the two calls
    expect((proxy.seen.get('getMultipleAccounts') ?? 0) - before).toBe(2)
  } finally {
    rpc.close()
    await proxy.close()
  }
})
