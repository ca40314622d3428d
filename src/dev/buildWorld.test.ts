import {
  type Client,
  decodeAbiParameters,
  encodeFunctionData,
  hexToString,
  keccak256,
  numberToHex,
  stringToHex,
  toFunctionSelector,
} from 'viem'
import { call, getLogs, readContract } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Address, Hex } from '../evm/types.ts'
import {
  loadArtifact,
  UNISWAP_V2_PAIR_INIT_CODE_HASH,
  UNISWAP_V3_POOL_INIT_CODE_HASH,
} from './artifacts.ts'
import { buildWorld, createDevClient, type World } from './buildWorld.ts'
import { compileContracts } from './compileContracts.ts'
import { runTrickle } from './runTrickle.ts'
import { type Anvil, startAnvil } from './startAnvil.ts'

const TRANSFER = keccak256(stringToHex('Transfer(address,address,uint256)'))
const REBASED = keccak256(stringToHex('Rebased(uint256,uint256)'))

let anvil: Anvil
let world: World
let client: Client
const rpc = <T>(method: string, params: unknown[] = []) =>
  client.request<{ method: string; params: unknown[]; ReturnType: T }>({ method, params })

beforeAll(async () => {
  anvil = await startAnvil()
  client = createDevClient(anvil.rpcUrl)
  world = await buildWorld({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId })
  console.info(
    `World: ${world.stats.transactions} transactions in blocks ${world.startBlock}–${world.endBlock}, built in ${world.stats.ms} ms`,
  )
})

afterAll(async () => {
  await anvil?.stop()
})

const token = (kind: World['tokens'][number]['kind']) =>
  world.tokens.find((t) => t.kind === kind)!.address
const range = () => ({
  fromBlock: numberToHex(world.startBlock),
  toBlock: numberToHex(world.endBlock),
})
const erc20 = async () => (await compileContracts()).DemoERC20.abi
const balanceAt = async (address: Address, holder: Address, blockNumber: bigint) =>
  (await readContract(client, {
    address,
    abi: await erc20(),
    functionName: 'balanceOf',
    args: [holder],
    blockNumber,
  })) as bigint

test('default', async () => {
  expect(world.wallets.length).toBeGreaterThanOrEqual(60)
  expect(new Set(world.wallets).size).toBe(world.wallets.length)
  expect(world.tokens.length).toBeGreaterThanOrEqual(12)
  expect(world.tokens.map((t) => t.kind).sort()).toMatchInlineSnapshot(`
    [
      "bytes32",
      "erc20",
      "erc20",
      "erc20",
      "erc20",
      "erc20",
      "fee",
      "no_decimals",
      "rebasing",
      "reverting_name",
      "reverting_name",
      "weth",
    ]
  `)
  expect(world.uniswap.pools).toHaveLength(3)
  for (const pool of world.uniswap.pools) expect(BigInt(pool)).not.toBe(0n)

  const transfers = await rpc<unknown[]>('eth_getLogs', [{ ...range(), topics: [TRANSFER] }])
  expect(transfers.length).toBeGreaterThanOrEqual(2000)
  const native = await Promise.all(
    world.wallets.slice(-5).map((w) => rpc<Hex>('eth_getBalance', [w, 'latest'])),
  )
  for (const balance of native) expect(BigInt(balance)).toBeGreaterThan(0n)
  expect(world.endBlock - world.startBlock).toBeGreaterThan(20n)
})

test('behavior: every wallet holds the spam NFT', async () => {
  const logs = await rpc<{ topics: Hex[] }[]>('eth_getLogs', [
    { ...range(), address: world.spamNft, topics: [TRANSFER] },
  ])
  const receivers = new Set(logs.map((l) => `0x${l.topics[2]!.slice(26)}`))
  expect(receivers.size).toBe(world.wallets.length)
  const uri = await readContract(client, {
    address: world.spamNft,
    abi: (await compileContracts()).SpamAirdropper.abi,
    functionName: 'tokenURI',
    args: [1n],
  })
  expect(uri).toMatchInlineSnapshot(`"http://bit.ly/claim-reward?id=1"`)
})

test('behavior: npm Uniswap artifacts match the init code hashes of the periphery', () => {
  expect(keccak256(loadArtifact('UniswapV2Pair').bytecode)).toBe(UNISWAP_V2_PAIR_INIT_CODE_HASH)
  expect(keccak256(loadArtifact('UniswapV3Pool').bytecode)).toBe(UNISWAP_V3_POOL_INIT_CODE_HASH)
})

type CallFrame = {
  type: string
  from: Address
  to: Address
  value?: Hex
  error?: string
  calls?: CallFrame[]
}
const flatten = (frame: CallFrame, depth = 0): (CallFrame & { depth: number })[] => [
  { ...frame, depth },
  ...(frame.calls ?? []).flatMap((c) => flatten(c, depth + 1)),
]

test('behavior: forwarder transactions show internal ETH transfers in callTracer traces', async () => {
  const abi = (await compileContracts()).EthForwarder.abi
  const selector = (name: string) =>
    toFunctionSelector(abi.find((x) => x.type === 'function' && x.name === name)! as never)
  const find = async (name: string) => {
    for (let b = world.startBlock; b <= world.endBlock; b++) {
      const block = await rpc<{ transactions: { hash: Hex; to: Address | null; input: Hex }[] }>(
        'eth_getBlockByNumber',
        [numberToHex(b), true],
      )
      const tx = block.transactions.find(
        (t) => t.to === world.forwarder && t.input.startsWith(selector(name)),
      )
      if (tx) return { block: b, hash: tx.hash }
    }
    throw new Error(`no ${name} transaction`)
  }
  const trace = async ({ block, hash }: { block: bigint; hash: Hex }) => {
    const traces = await rpc<{ txHash: Hex; result: CallFrame }[]>('debug_traceBlockByNumber', [
      numberToHex(block),
      { tracer: 'callTracer' },
    ])
    return flatten(traces.find((t) => t.txHash === hash)!.result)
  }

  // EOA → forwarder → forwarder2 → recipients.
  const nested = await trace(await find('splitVia'))
  expect(
    nested.some((f) => f.depth === 1 && f.to === world.forwarder2 && BigInt(f.value ?? 0) > 0n),
  ).toBe(true)
  expect(
    nested.filter((f) => f.depth === 2 && BigInt(f.value ?? 0) > 0n).length,
  ).toBeGreaterThanOrEqual(2)

  // The caught inner call reverted: its value transfers carry an error on them or a parent.
  const caught = await trace(await find('splitCatching'))
  const reverted = caught.filter((f) => f.error)
  expect(reverted.length).toBeGreaterThanOrEqual(1)
  expect(reverted[0]!.to).toBe(world.forwarder)
  expect(reverted[0]!.calls?.some((c) => BigInt(c.value ?? 0) > 0n)).toBe(true)
})

test('behavior: rebasing balances change without Transfer logs', async () => {
  const rebasing = token('rebasing')
  const rebases = await rpc<{ blockNumber: Hex }[]>('eth_getLogs', [
    { ...range(), address: rebasing, topics: [REBASED] },
  ])
  expect(rebases).toHaveLength(3)
  const block = BigInt(rebases[0]!.blockNumber)
  const transfers = await rpc<unknown[]>('eth_getLogs', [
    {
      fromBlock: numberToHex(block),
      toBlock: numberToHex(block),
      address: rebasing,
      topics: [TRANSFER],
    },
  ])
  expect(transfers).toHaveLength(0)
  const holder = world.wallets[3]!
  const before = await balanceAt(rebasing, holder, block - 1n)
  const after = await balanceAt(rebasing, holder, block)
  expect(before).toBeGreaterThan(0n)
  expect(after).not.toBe(before)
})

test('behavior: fee token balances differ from the sum of its Transfer events', async () => {
  const fee = token('fee')
  const logs = await rpc<{ topics: Hex[]; data: Hex }[]>('eth_getLogs', [
    { ...range(), address: fee, topics: [TRANSFER] },
  ])
  const sums = new Map<string, bigint>()
  for (const log of logs) {
    const value = BigInt(log.data)
    const from = `0x${log.topics[1]!.slice(26)}`
    const to = `0x${log.topics[2]!.slice(26)}`
    sums.set(from, (sums.get(from) ?? 0n) - value)
    sums.set(to, (sums.get(to) ?? 0n) + value)
  }
  let differ = 0
  for (const wallet of world.wallets) {
    const balance = await balanceAt(fee, wallet, world.endBlock)
    if (balance !== (sums.get(wallet) ?? 0n)) differ++
  }
  expect(differ).toBeGreaterThan(10)
  // The fee recipient gains without a single event naming it as recipient of the fee.
  expect(await balanceAt(fee, world.feeRecipient, world.endBlock)).toBeGreaterThan(
    sums.get(world.feeRecipient) ?? 0n,
  )
})

describe('behavior: odd metadata', () => {
  const read = async (address: Address, functionName: 'name' | 'symbol' | 'decimals') => {
    const data = encodeFunctionData({ abi: await erc20(), functionName })
    return call(client, { to: address, data }).then(
      (r) => r.data,
      (error: Error) => `reverted: ${error.message.split('\n')[0]}`,
    )
  }

  test('bytes32 name and symbol', async () => {
    const name = (await read(token('bytes32'), 'name')) as Hex
    expect(name.length).toBe(66)
    expect(hexToString(name, { size: 32 })).toBe('Maker')
    expect(hexToString((await read(token('bytes32'), 'symbol')) as Hex, { size: 32 })).toBe('MKR')
  })

  test('reverting name, with and without a symbol', async () => {
    const [withSymbol, without] = world.tokens.filter((t) => t.kind === 'reverting_name')
    expect(await read(withSymbol!.address, 'name')).toMatch(/^reverted/)
    const [symbol] = decodeAbiParameters(
      [{ type: 'string' }],
      (await read(withSymbol!.address, 'symbol')) as Hex,
    )
    expect(symbol).toBe('NONAME')
    expect(await read(without!.address, 'symbol')).toMatch(/^reverted/)
  })

  test('no decimals', async () => {
    expect(await read(token('no_decimals'), 'decimals')).toMatch(/^reverted/)
  })
})

test('behavior: same seed, same world', async () => {
  const build = async () => {
    const node = await startAnvil()
    try {
      const built = await buildWorld({
        rpcUrl: node.rpcUrl,
        chainId: node.chainId,
        transfers: 300,
        seed: 7,
      })
      const logs = await getLogs(createDevClient(node.rpcUrl), {
        fromBlock: built.startBlock,
        toBlock: built.endBlock,
      })
      return {
        world: { ...built, stats: { transactions: built.stats.transactions } },
        logs: logs.map((l) => [l.blockNumber, l.address, l.topics, l.data]),
      }
    } finally {
      await node.stop()
    }
  }
  const [a, b] = await Promise.all([build(), build()])
  expect(a.logs.length).toBeGreaterThan(500)
  expect(b).toEqual(a)
})

test('behavior: runTrickle adds activity until aborted', async () => {
  const before = BigInt(await rpc<Hex>('eth_blockNumber'))
  const controller = new AbortController()
  const running = runTrickle({
    world,
    rpcUrl: anvil.rpcUrl,
    intervalMs: 20,
    seed: 3,
    signal: controller.signal,
  })
  await new Promise((resolve) => setTimeout(resolve, 600))
  controller.abort()
  await running
  // Automine is back on after buildWorld, so each trickle transaction is a block.
  expect(BigInt(await rpc<Hex>('eth_blockNumber'))).toBeGreaterThan(before + 3n)
})
