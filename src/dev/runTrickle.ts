import type { Logger } from 'pino'
import { type Abi, encodeFunctionData, numberToHex } from 'viem'
import { readContract } from 'viem/actions'
import type { Address, Hex } from '../evm/types.ts'
import { loadArtifact } from './artifacts.ts'
import { createDevClient, type World } from './buildWorld.ts'
import { compileContracts } from './compileContracts.ts'
import { createPrng } from './createPrng.ts'

export type RunTrickleOptions = {
  world: World
  rpcUrl: string
  /** Pause between rounds of 1–3 transactions. Default 2,000 ms. */
  intervalMs?: number
  /** Default: from the clock, so each run differs. */
  seed?: number
  /** Mine a block after each round (for a node with neither automine nor interval mining). */
  mine?: boolean
  signal?: AbortSignal
  logger?: Logger
}

/**
 * Keeps new random activity coming on a built world (for `scry dev`) until `signal` aborts:
 * native sends, forwarder splits (internal ETH), mints of every kind, WETH deposits and small
 * ERC20 transfers. Every action is valid on any state of the world, so nothing is tracked.
 * Failures are logged and the trickle goes on.
 */
export async function runTrickle({
  world,
  rpcUrl,
  intervalMs = 2000,
  seed = Date.now(),
  mine = false,
  signal,
  logger,
}: RunTrickleOptions): Promise<void> {
  const client = createDevClient(rpcUrl)
  const rpc = <T>(method: string, params: unknown[] = []) =>
    client.request<{ method: string; params: unknown[]; ReturnType: T }>({ method, params })
  const compiled = await compileContracts()
  const prng = createPrng(seed)
  const demoTokens = world.tokens.filter((t) => t.kind === 'erc20')
  const erc721s = world.nfts.filter((n) => n.standard === 'erc721' && n.address !== world.spamNft)
  const erc1155s = world.nfts.filter((n) => n.standard === 'erc1155')
  const wallet = () => prng.pick(world.wallets)

  const send = (
    from: Address,
    to: Address,
    {
      abi,
      fn,
      args = [],
      value = 0n,
      gas = 200_000n,
    }: {
      abi?: Abi
      fn?: string
      args?: readonly unknown[]
      value?: bigint
      gas?: bigint
    },
  ) =>
    rpc<Hex>('eth_sendTransaction', [
      {
        from,
        to,
        value: numberToHex(value),
        gas: numberToHex(gas),
        ...(abi && fn ? { data: encodeFunctionData({ abi, functionName: fn, args }) } : {}),
      },
    ])

  const actions: (() => Promise<unknown>)[] = [
    () => {
      const from = wallet()
      return send(from, wallet(), {
        value: BigInt(prng.between(1, 1000)) * 10n ** 15n,
        gas: 21_000n,
      })
    },
    () => {
      const to = prng.sample(world.wallets, prng.between(2, 4))
      const value = BigInt(prng.between(10, 500)) * 10n ** 15n
      const abi = compiled.EthForwarder.abi
      return send(wallet(), world.forwarder, { abi, fn: 'split', args: [to], value, gas: 400_000n })
    },
    () => {
      const token = prng.pick(demoTokens)
      const amount = BigInt(prng.between(1, 1000)) * 10n ** BigInt(token.decimals ?? 18)
      const abi = compiled.DemoERC20.abi
      return send(wallet(), token.address, { abi, fn: 'mint', args: [wallet(), amount] })
    },
    async () => {
      const token = prng.pick(demoTokens)
      const from = wallet()
      const abi = compiled.DemoERC20.abi
      const balance = (await readContract(client, {
        address: token.address,
        abi,
        functionName: 'balanceOf',
        args: [from],
      })) as bigint
      if (balance < 100n) return
      return send(from, token.address, { abi, fn: 'transfer', args: [wallet(), balance / 100n] })
    },
    () => {
      const to = wallet()
      const abi = compiled.DemoERC721.abi
      return send(to, prng.pick(erc721s).address, { abi, fn: 'mint', args: [to] })
    },
    () => {
      const to = wallet()
      const args = [to, BigInt(prng.between(1, 6)), BigInt(prng.between(1, 20))]
      return send(to, prng.pick(erc1155s).address, {
        abi: compiled.DemoERC1155.abi,
        fn: 'mint',
        args,
      })
    },
    () => {
      const value = BigInt(prng.between(10, 1000)) * 10n ** 15n
      const abi = loadArtifact('WETH9').abi
      return send(wallet(), world.weth, { abi, fn: 'deposit', value, gas: 80_000n })
    },
  ]

  const accounts = new Set(
    await rpc<Address[]>('eth_accounts').then((a) => a.map((x) => x.toLowerCase())),
  )
  await Promise.all(
    world.wallets.filter((w) => !accounts.has(w)).map((w) => rpc('anvil_impersonateAccount', [w])),
  )

  while (!signal?.aborted) {
    const round = Array.from({ length: prng.between(1, 3) }, () => prng.pick(actions))
    try {
      // One after another: sends without explicit nonces must not race for the same one.
      for (const action of round) await action()
      if (mine) await rpc('evm_mine')
    } catch (error) {
      if (signal?.aborted) break
      logger?.warn({ err: error }, 'Trickle transaction failed')
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, intervalMs)
      signal?.addEventListener('abort', done, { once: true })
      function done() {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
    })
  }
}
