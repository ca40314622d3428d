import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Abi, maxUint256 } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readDefiPositions } from '../../src/defi/readDefiPositions.ts'
import type { DefiCandidate, Erc4626Position } from '../../src/defi/types.ts'
import { anvilAccounts } from '../../src/dev/anvilAccounts.ts'
import { compileContracts } from '../../src/dev/compileContracts.ts'
import { type AnvilActions, createAnvilActions } from '../../src/dev/createAnvilActions.ts'
import { createPrng, type Prng } from '../../src/dev/createPrng.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { CALL_GAS_CAP } from '../../src/evm/read/readAtBlock.ts'
import { createRpcClient, type RpcClient } from '../../src/evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../../src/evm/types.ts'
import { createCountingProxy, type ProxiedCall } from '../support/createCountingProxy.ts'

// ERC4626 shares valued by readDefiPositions must equal what `redeem` pays (eth_call from the
// holder at the same block hash): OpenZeppelin vaults with and without a decimals offset, one
// charging an exit fee in previewRedeem, and a hostile vault that only passes when listed.
const SEED = Number(process.env.SCRY_DEFI_SEED ?? Date.now() % 100_000)
const MAX = maxUint256
const USD = 10n ** 6n

let anvil: Anvil
let rpc: RpcClient
let chain: AnvilActions
let prng: Prng
let erc20: Abi
let vaultAbi: Abi
let asset: Address
/** Honest vaults: plain, with a decimals offset of 6, with a 0.5 % exit fee. */
let vaults: { plain: Address; offset: Address; fee: Address }
let inflated: Address
const [deployer, ...holders] = anvilAccounts(5).map((a) => a.address) as [Address, ...Address[]]

beforeAll(async () => {
  console.log(`defi erc4626: seed ${SEED} (SCRY_DEFI_SEED=${SEED} repeats it)`)
  prng = createPrng(SEED)
  anvil = await startAnvil()
  rpc = createRpcClient({ urls: [anvil.rpcUrl] })
  chain = createAnvilActions({ rpcUrl: anvil.rpcUrl })
  // The vaults are dev contracts outside CompiledContracts' names (src/dev/contracts/*Vault.sol).
  const compiled = await compileContracts()
  erc20 = compiled.DemoERC20.abi
  vaultAbi = compiled.FeeVault.abi
  const from = deployer
  asset = await chain.deploy({ from, artifact: compiled.DemoERC20, args: ['Dollar', 'DUSD', 6] })
  vaults = {
    plain: await chain.deploy({
      from,
      artifact: compiled.DemoVault,
      args: [asset, 'Plain', 'vP', 0],
    }),
    offset: await chain.deploy({
      from,
      artifact: compiled.DemoVault,
      args: [asset, 'Offset', 'vO', 6],
    }),
    fee: await chain.deploy({ from, artifact: compiled.FeeVault, args: [asset, 'Fee', 'vF', 50] }),
  }
  inflated = await chain.deploy({
    from,
    artifact: compiled.InflatedVault,
    args: [asset, 1_000_000],
  })
  for (const who of holders) {
    await chain.send({
      from,
      to: asset,
      abi: erc20,
      functionName: 'mint',
      args: [who, 10n ** 6n * USD],
    })
    for (const vault of [...Object.values(vaults), inflated])
      await chain.send({
        from: who,
        to: asset,
        abi: erc20,
        functionName: 'approve',
        args: [vault, MAX],
      })
  }
})

afterAll(async () => {
  rpc?.close()
  await anvil?.stop()
})

test('default', async () => {
  for (let i = 0; i < 60; i++) await randomAction()
  const checked = await checkAgainstRedeem({ listed: true })
  expect(checked.nonZero, `seed ${SEED}`).toBeGreaterThanOrEqual(6)
  for (let i = 0; i < 20; i++) await randomAction()
  await checkAgainstRedeem({ listed: false })
})

test('behavior: unlisted vaults must be self-consistent', async () => {
  const who = holders[0]!
  await chain.send({
    from: who,
    to: inflated,
    abi: vaultAbi,
    functionName: 'deposit',
    args: [BigInt(prng.between(100, 10_000)) * USD, who],
  })
  const head = await chain.head()
  const candidate = (listed: boolean): DefiCandidate => ({
    type: 'erc4626',
    owner: who,
    vault: inflated,
    listed,
  })
  const unlisted = await readDefiPositions({ rpc, ...head, candidates: [candidate(false)] })
  expect(unlisted.positions).toEqual([])
  expect(unlisted.skipped.map((s) => s.reason)).toEqual(['inconsistent_vault'])
  // Listed, it is believed: and redeeming what it claims fails.
  const listed = await readDefiPositions({ rpc, ...head, candidates: [candidate(true)] })
  const [p] = listed.positions as Erc4626Position[]
  const supply = await chain.call<bigint>({
    to: asset,
    abi: erc20,
    functionName: 'totalSupply',
    blockHash: head.blockHash,
  })
  expect(p!.previewRedeem).toBeGreaterThan(supply)
  await expect(
    chain.call({
      from: who,
      to: inflated,
      abi: vaultAbi,
      functionName: 'redeem',
      args: [p!.shares, who, who],
      blockHash: head.blockHash,
    }),
  ).rejects.toThrow(/reverted/)
})

test('behavior: a vault whose conversions burn all gas is skipped, every call capped', async () => {
  const compiled = await compileContracts()
  const who = holders[1]!
  const burner = await chain.deploy({
    from: deployer,
    artifact: compiled.GasBurnerVault,
    args: [asset],
  })
  await chain.send({
    from: who,
    to: asset,
    abi: erc20,
    functionName: 'approve',
    args: [burner, MAX],
  })
  await chain.send({
    from: who,
    to: burner,
    abi: vaultAbi,
    functionName: 'deposit',
    args: [BigInt(prng.between(100, 10_000)) * USD, who],
  })
  const calls: ProxiedCall[] = []
  const proxy = await createCountingProxy({
    target: anvil.rpcUrl,
    record: { methods: ['eth_call'], onCall: (call) => calls.push(call) },
  })
  const viaProxy = createRpcClient({ urls: [proxy.url] })
  try {
    const head = await chain.head()
    for (const listed of [true, false]) {
      const result = await readDefiPositions({
        rpc: viaProxy,
        ...head,
        candidates: [{ type: 'erc4626', owner: who, vault: burner, listed }],
      })
      expect(result.positions).toEqual([])
      expect(result.skipped.map((s) => s.reason)).toEqual(['read_failed'])
    }
    expect(calls.length).toBeGreaterThan(0)
    for (const call of calls) {
      expect(BigInt((call.params[0] as { gas: Hex }).gas)).toBe(CALL_GAS_CAP)
    }
  } finally {
    viaProxy.close()
    await proxy.close()
  }
})

test('behavior: not a vault', async () => {
  const head = await chain.head()
  const result = await readDefiPositions({
    rpc,
    ...head,
    candidates: [
      { type: 'erc4626', owner: holders[0]!, vault: asset, listed: false },
      { type: 'erc4626', owner: holders[0]!, vault: holders[1]!, listed: true },
    ],
  })
  expect(result.positions).toEqual([])
  expect(result.skipped.map((s) => s.reason)).toEqual(['read_failed', 'read_failed'])
})

test('error: a node that fails every eth_call fails the read (the chain is unavailable), not every position skipped', async () => {
  // In front of the node, every eth_call answered with a JSON-RPC error, as an overloaded or
  // broken node answers; everything else forwarded.
  const failing = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = JSON.parse(Buffer.concat(chunks).toString())
    const answer = async (call: { id: unknown; method: string }) =>
      call.method === 'eth_call'
        ? { jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'missing trie node' } }
        : await (
            await fetch(anvil.rpcUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(call),
            })
          ).json()
    const out = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body)
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify(out))
  })
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve))
  const viaFailing = createRpcClient({
    urls: [`http://127.0.0.1:${(failing.address() as AddressInfo).port}`],
    // As the API's client (`createApiRpc`).
    retryCount: 2,
    retryDelayMs: 1,
  })
  try {
    const head = await chain.head()
    const candidates: DefiCandidate[] = Object.values(vaults).map((vault) => ({
      type: 'erc4626',
      owner: holders[0]!,
      vault,
      listed: true,
    }))
    await expect(readDefiPositions({ rpc: viaFailing, ...head, candidates })).rejects.toThrow(
      'The node failed a plain eth_call',
    )
  } finally {
    viaFailing.close()
    await new Promise((resolve) => failing.close(resolve))
  }
})

async function checkAgainstRedeem({ listed }: { listed: boolean }): Promise<{ nonZero: number }> {
  const { blockNumber, blockHash } = await chain.head()
  let rounds = 0
  const counting: RpcClient = {
    ...rpc,
    batch: (calls, options) => {
      rounds++
      return rpc.batch(calls, options)
    },
  }
  const candidates: DefiCandidate[] = holders.flatMap((owner) =>
    Object.values(vaults).map((vault) => ({ type: 'erc4626' as const, owner, vault, listed })),
  )
  const { positions, skipped } = await readDefiPositions({
    rpc: counting,
    blockNumber,
    blockHash,
    candidates,
  })
  expect(skipped).toEqual([])
  expect(rounds).toBe(2)
  let nonZero = 0
  for (const p of positions as Erc4626Position[]) {
    const where = `seed ${SEED}, holder ${p.owner}, vault ${p.vault}, block ${blockNumber}`
    expect(p.asset, where).toBe(asset)
    const read = <T>(functionName: string, args: unknown[] = []) =>
      chain.call<T>({ from: p.owner, to: p.vault, abi: vaultAbi, functionName, args, blockHash })
    expect(p.shares, where).toBe(await read<bigint>('balanceOf', [p.owner]))
    const redeemed = await read<bigint>('redeem', [p.shares, p.owner, p.owner])
    expect(p.previewRedeem, where).toBe(redeemed)
    if (p.vault === vaults.fee) {
      if (redeemed > 0n) expect(p.convertToAssets, where).toBeGreaterThan(redeemed)
    } else {
      expect(p.convertToAssets, where).toBe(redeemed)
    }
    if (redeemed > 0n) nonZero++
  }
  return { nonZero }
}

async function randomAction(): Promise<void> {
  const who = prng.pick(holders)
  const vault = prng.pick(Object.values(vaults))
  const roll = prng.next()
  const amount = BigInt(prng.between(1, 50_000)) * USD + BigInt(prng.int(1e6))
  if (roll < 0.4) {
    await chain.send({
      from: who,
      to: vault,
      abi: vaultAbi,
      functionName: 'deposit',
      args: [amount, who],
    })
    return
  }
  const shares = await chain.call<bigint>({
    to: vault,
    abi: vaultAbi,
    functionName: 'balanceOf',
    args: [who],
  })
  if (roll < 0.6 && shares > 0n) {
    const part = (shares * BigInt(prng.between(1, 100))) / 100n
    await chain.send({
      from: who,
      to: vault,
      abi: vaultAbi,
      functionName: 'redeem',
      args: [part, who, who],
    })
    return
  }
  if (roll < 0.75 && shares > 0n) {
    const to = prng.pick(holders)
    const part = (shares * BigInt(prng.between(1, 100))) / 100n
    await chain.send({
      from: who,
      to: vault,
      abi: vaultAbi,
      functionName: 'transfer',
      args: [to, part],
    })
    return
  }
  // Yield: assets sent to the vault without shares (odd amounts, so rounding shows).
  await chain.send({
    from: who,
    to: asset,
    abi: erc20,
    functionName: 'transfer',
    args: [vault, amount / BigInt(prng.between(1, 1000))],
  })
}
