import { expect, test } from 'vitest'
import { anvilAccounts } from './anvilAccounts.ts'
import { startAnvil } from './startAnvil.ts'

const rpc = async <T>(url: string, method: string, params: unknown[] = []) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: T }).result
}

test('default', async () => {
  const anvil = await startAnvil()
  try {
    expect(anvil.chainId).toBe(31337)
    expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${anvil.port}`)
    expect(anvil.wsUrl).toBe(`ws://127.0.0.1:${anvil.port}`)
    expect(await rpc(anvil.rpcUrl, 'eth_chainId')).toBe('0x7a69')
    const accounts = await rpc<string[]>(anvil.rpcUrl, 'eth_accounts')
    expect(accounts).toEqual(anvilAccounts(20).map((a) => a.address))
  } finally {
    await anvil.stop()
  }
  await expect(rpc(anvil.rpcUrl, 'eth_chainId')).rejects.toThrow()
})

test('args: chainId, accounts, balance', async () => {
  const anvil = await startAnvil({ chainId: 8453, accounts: 3, balance: 5 })
  try {
    expect(await rpc(anvil.rpcUrl, 'eth_chainId')).toBe('0x2105')
    const accounts = await rpc<string[]>(anvil.rpcUrl, 'eth_accounts')
    expect(accounts).toHaveLength(3)
    expect(BigInt(await rpc<string>(anvil.rpcUrl, 'eth_getBalance', [accounts[0], 'latest']))).toBe(
      5n * 10n ** 18n,
    )
  } finally {
    await anvil.stop()
  }
})

test('args: signal', async () => {
  const controller = new AbortController()
  const anvil = await startAnvil({ signal: controller.signal })
  controller.abort()
  await anvil.stop()
  await expect(rpc(anvil.rpcUrl, 'eth_chainId')).rejects.toThrow()
  await expect(startAnvil({ signal: controller.signal })).rejects.toThrow()
})

test('behavior: anvilAccounts', () => {
  expect(anvilAccounts(2)).toMatchInlineSnapshot(`
    [
      {
        "address": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
        "privateKey": "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
      },
      {
        "address": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        "privateKey": "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
      },
    ]
  `)
})

test('error: port in use', async () => {
  const anvil = await startAnvil()
  try {
    await expect(startAnvil({ port: anvil.port })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [BaseError: Anvil exited with code 1 before listening.

      Details: anvil stderr:
      Error: Address already in use (os error 98)]
    `)
  } finally {
    await anvil.stop()
  }
})
