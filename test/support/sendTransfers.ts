import { type Hex, numberToHex } from 'viem'
import type { createPrng } from '../../src/dev/createPrng.ts'
import { until } from './until.ts'

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result: T; error?: unknown }
  if (body.error) throw new Error(JSON.stringify(body.error))
  return body.result
}

/** `count` live ETH transfers between anvil's first ten accounts, each waited for. */
export async function sendTransfers({
  rpcUrl,
  prng,
  count,
}: {
  rpcUrl: string
  prng: ReturnType<typeof createPrng>
  count: number
}): Promise<void> {
  const accounts = await rpc<Hex[]>(rpcUrl, 'eth_accounts')
  for (let i = 0; i < count; i++) {
    const [from, to] = prng.sample(accounts.slice(0, 10), 2) as [Hex, Hex]
    const hash = await rpc<Hex>(rpcUrl, 'eth_sendTransaction', [
      { from, to, value: numberToHex(BigInt(prng.between(1, 10 ** 6))) },
    ])
    await until({
      what: 'receipt',
      read: () => rpc(rpcUrl, 'eth_getTransactionReceipt', [hash]).then((r) => r ?? undefined),
    })
  }
}

/** The node's head block (number and hash). */
export async function nodeHead(rpcUrl: string): Promise<{ number: bigint; hash: Hex }> {
  const block = await rpc<{ number: Hex; hash: Hex }>(rpcUrl, 'eth_getBlockByNumber', [
    'latest',
    false,
  ])
  return { number: BigInt(block.number), hash: block.hash }
}
