import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Address,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  publicActions,
  toHex,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createMethodFilterProxy } from '../../../test/support/createMethodFilterProxy.ts'
import { compileContracts } from '../../dev/compileContracts.ts'
import { type Anvil, startAnvil } from '../../dev/startAnvil.ts'
import { createRpcClient } from '../rpc/createRpcClient.ts'
import { READS_PER_CALL } from './batchReads.ts'
import { BATCH_READS_CODE } from './batchReadsCode.ts'
import { callContracts } from './callContracts.ts'
import { CALL_GAS_CAP, type ContractCall, callKey, readAtBlock } from './readAtBlock.ts'
import { readNativeBalances } from './readNativeBalances.ts'

const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string }
const MNEMONIC = 'test test test test test test test test test test test junk'
const owner = mnemonicToAccount(MNEMONIC)
/** JUMPDEST PUSH1 0 JUMP: spins until its gas is gone. */
const SPINNER: Address = '0x00000000000000000000000000000000005b5b00'
/** Gas burners: more than one batched call's gas holds (about 8 × 5M of 50M), fewer than two. */
const SPINNERS = 12
const wallets = Array.from(
  { length: 450 },
  (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}` as Address,
)

test('default: batchReadsCode.ts is BatchReads.sol as compiled', () => {
  const input = {
    language: 'Solidity',
    sources: {
      'BatchReads.sol': {
        content: readFileSync(new URL('./BatchReads.sol', import.meta.url), 'utf8'),
      },
    },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'byzantium',
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: { '*': { BatchReads: ['evm.deployedBytecode.object'] } },
    },
  }
  const out = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (out.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  expect(errors).toEqual([])
  const code = `0x${out.contracts['BatchReads.sol'].BatchReads.evm.deployedBytecode.object}`
  expect(code, 'put this code in batchReadsCode.ts').toBe(BATCH_READS_CODE)
})

describe('batched reads against anvil', () => {
  let anvil: Anvil
  let token: Address
  let block: { number: bigint; hash: Hex }
  beforeAll(async () => {
    const [node, contracts] = await Promise.all([
      startAnvil({ chainId: 31337 }),
      compileContracts(),
    ])
    anvil = node
    const client = createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) })
      .extend(publicActions)
      .extend((c) => ({
        wallet: createWalletClient({ transport: http(anvil.rpcUrl), chain: c.chain }),
      }))
    const { abi, bytecode } = contracts.DemoERC20
    const deployed = await client.waitForTransactionReceipt({
      hash: await client.wallet.deployContract({
        abi,
        bytecode,
        args: ['Demo', 'DEMO', 18],
        account: owner,
        chain: null,
      }),
    })
    token = deployed.contractAddress as Address
    for (const [i, wallet] of wallets.entries()) {
      if (i % 3 !== 0) continue
      await client.setBalance({ address: wallet, value: BigInt(i) * 10n ** 15n })
      if (i % 9 === 0) {
        await client.waitForTransactionReceipt({
          hash: await client.wallet.writeContract({
            address: token,
            abi,
            functionName: 'mint',
            args: [wallet, BigInt(i + 1)],
            account: owner,
            chain: null,
          }),
        })
      }
    }
    await client.setCode({ address: SPINNER, bytecode: '0x5b600056' })
    await client.mine({ blocks: 1 })
    const b = await client.getBlock()
    block = { number: b.number, hash: b.hash }
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  const balanceOf = (wallet: Address): ContractCall => ({
    to: token,
    data: encodeFunctionData({
      abi: [
        {
          type: 'function',
          name: 'balanceOf',
          stateMutability: 'view',
          inputs: [{ type: 'address' }],
          outputs: [{ type: 'uint256' }],
        },
      ],
      args: [wallet],
    }),
  })
  /**
   * Every read three times over (more than one batched call can hold), then reverting ones,
   * calls to an account without code and gas burners.
   */
  const calls = (): ContractCall[] => [
    ...wallets.map(balanceOf),
    ...wallets.map(balanceOf),
    ...wallets.map(balanceOf),
    { to: token, data: '0xdeadbeef' },
    { to: wallets[1]!, data: '0x70a08231' },
    ...Array.from({ length: SPINNERS }, () => ({ to: SPINNER, data: '0x' as Hex })),
    ...wallets.slice(0, 30).map(balanceOf),
  ]
  /** What the node answers to each call alone. */
  async function oneByOne(url: string, list: readonly ContractCall[]) {
    const rpc = createRpcClient({ urls: [url] })
    try {
      const results = await rpc.batch<Hex>(
        list.map((c) => ({
          method: 'eth_call',
          params: [{ to: c.to, data: c.data, gas: toHex(CALL_GAS_CAP) }, { blockHash: block.hash }],
        })),
      )
      return results.map((r) => (r.ok ? r.result : undefined))
    } finally {
      rpc.close()
    }
  }

  test('behavior: reads made earlier at the block (`ready`) are taken from there, the rest asked', async () => {
    const proxy = await createMethodFilterProxy({ target: anvil.rpcUrl, refuse: () => undefined })
    const rpc = createRpcClient({ urls: [proxy.url] })
    try {
      const list = calls()
      const native = [...wallets, token, SPINNER]
      const at = { rpc, blockNumber: block.number, blockHash: block.hash }
      const expected = await readAtBlock({ ...at, calls: list, native })
      expect(expected.results).toEqual(await oneByOne(anvil.rpcUrl, list))
      // Every other call and a third of the balances read earlier, the spinners among them.
      const some = list.filter((_, i) => i % 2 === 0)
      const earlier = await readAtBlock({ ...at, calls: some, native: native.slice(0, 150) })
      const ready = {
        blockHash: block.hash,
        calls: new Map(some.map((call, i) => [callKey(call), earlier.results[i]])),
        native: earlier.native,
      }
      proxy.seen.clear()
      const got = await readAtBlock({ ...at, calls: list, native, ready })
      expect(got.results).toEqual(expected.results)
      expect(got.native).toEqual(expected.native)
      expect(proxy.seen.get('eth_call')).toBeGreaterThan(0)

      // All of them read earlier: the node is not asked.
      const all = {
        blockHash: block.hash,
        calls: new Map(list.map((call, i) => [callKey(call), expected.results[i]])),
        native: expected.native,
      }
      proxy.seen.clear()
      const again = await readAtBlock({ ...at, calls: list, native, ready: Promise.resolve(all) })
      expect(again.results).toEqual(expected.results)
      expect(again.native).toEqual(expected.native)
      expect(proxy.seen.size).toBe(0)

      // Reads of another block are never taken for this one.
      await expect(
        readAtBlock({ ...at, calls: list, ready: { ...all, blockHash: `0x${'11'.repeat(32)}` } }),
      ).rejects.toThrow(/offered for/)
    } finally {
      rpc.close()
      await proxy.close()
    }
  })

  /** How a node answers batched calls: takes them, refuses them, or fails them as a whole. */
  const NODES = {
    batched: undefined,
    'a node without state overrides': { code: -32602, message: 'state override not supported' },
    'a node that calls them an internal error': { code: -32603, message: 'internal error' },
  }
  for (const [node, refusal] of Object.entries(NODES)) {
    const refuseOverrides = refusal !== undefined
    test(`behavior: the same answers as one call each, in fewer calls (${node})`, async () => {
      const proxy = await createMethodFilterProxy({
        target: anvil.rpcUrl,
        refuse: ({ method, params }) =>
          method === 'eth_call' && params.length > 2 ? refusal : undefined,
      })
      const rpc = createRpcClient({ urls: [proxy.url], retryCount: 1, retryDelayMs: 1 })
      try {
        const list = calls()
        const expected = await oneByOne(anvil.rpcUrl, list)
        expect(expected.filter((r) => r === undefined).length).toBe(SPINNERS + 1)
        proxy.seen.clear()
        const got = await callContracts({
          rpc,
          blockNumber: block.number,
          blockHash: block.hash,
          calls: list,
        })
        expect(got).toEqual(expected)
        const made = proxy.seen.get('eth_call') ?? 0
        const perRound = Math.ceil(list.length / READS_PER_CALL)
        expect(perRound).toBeGreaterThan(1)
        // Refused (one failed batched call per READS_PER_CALL, then each alone), or failed as
        // a whole (tried twice, then each alone).
        if (refusal?.code === -32602) expect(made).toBe(perRound + list.length)
        else if (refuseOverrides) expect(made).toBe(2 * perRound + list.length)
        else {
          // Each spinner burns its 5M gas of a call's 50M: the call holding them stops after
          // eight or so, and a second round takes the reads it left (the other spinners and
          // the balances after them). Alone go only the reads that failed inside: the revert
          // and the spinners.
          expect(made).toBe(perRound + 1 + 1 + SPINNERS)
        }

        proxy.seen.clear()
        const balances = await readNativeBalances({
          rpc,
          blockNumber: block.number,
          blockHash: block.hash,
          addresses: [...wallets, token, SPINNER],
        })
        const node = createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }).extend(
          publicActions,
        )
        for (const address of [...wallets, token, SPINNER]) {
          expect(balances.get(address)).toBe(
            await node.getBalance({ address, blockNumber: block.number }),
          )
        }
        expect([...balances.values()].filter((b) => b > 0n).length).toBeGreaterThan(100)
        if (!refuseOverrides) {
          expect(proxy.seen.get('eth_call')).toBe(1)
          expect(proxy.seen.get('eth_getBalance')).toBeUndefined()
        } else if (refusal.code === -32603) {
          // The client no longer tries batched calls for a while.
          expect(proxy.seen.get('eth_call')).toBeUndefined()
        }

        // Calls and balances together: the balances ride in the calls' batched calls.
        proxy.seen.clear()
        const both = await readAtBlock({
          rpc,
          blockNumber: block.number,
          blockHash: block.hash,
          calls: list,
          native: [...wallets, token, SPINNER],
        })
        expect(both.results).toEqual(expected)
        expect(both.native).toEqual(balances)
        if (!refuseOverrides) {
          expect(proxy.seen.get('eth_call')).toBe(made)
          expect(proxy.seen.get('eth_getBalance')).toBeUndefined()
        } else expect(proxy.seen.get('eth_getBalance')).toBe(wallets.length + 2)
      } finally {
        rpc.close()
        await proxy.close()
      }
    })
  }
})
