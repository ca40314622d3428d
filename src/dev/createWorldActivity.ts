import { type Abi, encodeFunctionData } from 'viem'
import type { Address } from '../evm/types.ts'
import { loadArtifact } from './artifacts.ts'
import type { CompiledContracts } from './compileContracts.ts'
import type { Prng } from './createPrng.ts'
import type { TxQueue } from './createTxQueue.ts'
import { createWorldModel, erc1155Key, type WorldModel } from './createWorldModel.ts'
import type { DeployedContracts } from './deployWorld.ts'
import { DEADLINE, seedUniswap, V3_FEE } from './seedUniswap.ts'

export type Fungible = { address: Address; decimals: number }

export type WorldActivity = {
  model: WorldModel
  /** Mints every fungible token, WETH, NFTs and ERC1155 items to every wallet. */
  seed(): void
  /** Uniswap approvals for every wallet plus the deployer's liquidity (V2 pairs, V3 pool). */
  seedUniswap(): void
  /** Queues one random action (one or two transactions now, maybe one deferred). */
  randomAction(): void
  rebase(): void
  airdrop(): void
}

/** Random demo activity over the deployed world, valid by construction (see WorldModel). */
export function createWorldActivity({
  prng,
  queue,
  compiled,
  contracts: k,
  wallets,
  deployer,
}: {
  prng: Prng
  queue: TxQueue
  compiled: CompiledContracts
  contracts: DeployedContracts
  wallets: Address[]
  deployer: Address
}): WorldActivity {
  const model = createWorldModel({ erc721s: k.erc721, erc1155s: [k.erc1155] })
  const erc20 = compiled.DemoERC20.abi
  const demo = k.demoTokens[0]!.address
  const dusd = k.demoTokens[1]!.address
  const fungibles: Fungible[] = [
    ...k.demoTokens,
    { address: k.rebasing, decimals: 18 },
    { address: k.fee, decimals: 18 },
    { address: k.bytes32, decimals: 18 },
    { address: k.revertingName, decimals: 18 },
    { address: k.revertingNameAndSymbol, decimals: 18 },
    { address: k.noDecimals, decimals: 18 },
  ]
  const transferable = [...fungibles.map((f) => f.address), k.weth]
  let rebaseIndex = 10_000n

  const send = (
    label: string,
    from: Address,
    to: Address,
    abi: Abi,
    functionName: string,
    args: readonly unknown[],
    { gas = 150_000n, value }: { gas?: bigint; value?: bigint } = {},
  ) =>
    queue.add({
      label,
      from,
      to,
      data: encodeFunctionData({ abi, functionName, args }),
      gas,
      ...(value === undefined ? {} : { value }),
    })
  const wallet = () => prng.pick(wallets)
  const other = (not: Address) => {
    for (;;) {
      const w = wallet()
      if (w !== not) return w
    }
  }
  const units = (decimals: number, min: number, max: number) =>
    BigInt(prng.between(min, max)) * 10n ** BigInt(decimals)
  const eth = (minMilli: number, maxMilli: number) =>
    BigInt(prng.between(minMilli, maxMilli)) * 10n ** 15n
  const part = (amount: bigint) => (amount * BigInt(prng.between(1, 30))) / 100n
  /** Recipient's credit: fee-on-transfer and rebasing tokens deliver less than sent. */
  const received = (token: Address, amount: bigint) =>
    token === k.fee || token === k.rebasing ? (amount * 97n) / 100n : amount

  const transferToken = (viaApproval: boolean) => {
    const token = prng.pick(transferable)
    const from = wallet()
    const amount = part(model.spendable(token, from))
    if (amount === 0n) return nativeSend()
    const to = other(from)
    model.debit(token, from, amount)
    model.credit(token, to, received(token, amount))
    if (!viaApproval) return send('erc20 transfer', from, token, erc20, 'transfer', [to, amount])
    const spender = other(from)
    send('erc20 approve', from, token, erc20, 'approve', [spender, amount])
    model.defer(() =>
      send('erc20 transferFrom', spender, token, erc20, 'transferFrom', [from, to, amount]),
    )
  }
  const nativeSend = () => {
    const from = wallet()
    queue.add({ label: 'native send', from, to: other(from), value: eth(1, 2000), gas: 21_000n })
  }
  const forward = () => {
    const from = wallet()
    const to = prng.sample(
      wallets.filter((w) => w !== from),
      prng.between(2, 5),
    )
    const value = eth(10, 1000)
    const abi = compiled.EthForwarder.abi
    const opts = { gas: 500_000n, value }
    const kind = prng.int(3)
    if (kind === 0) send('forwarder split', from, k.forwarder, abi, 'split', [to], opts)
    else if (kind === 1)
      send('forwarder splitVia', from, k.forwarder, abi, 'splitVia', [k.forwarder2, to], opts)
    else
      send('forwarder splitCatching', from, k.forwarder, abi, 'splitCatching', [to, other(from)], {
        ...opts,
        gas: 600_000n,
      })
  }
  const weth = () => {
    const abi = loadArtifact('WETH9').abi
    const from = wallet()
    const amount = part(model.spendable(k.weth, from))
    if (prng.chance(0.5) || amount === 0n) {
      const value = eth(10, 5000)
      model.credit(k.weth, from, value)
      return send('weth deposit', from, k.weth, abi, 'deposit', [], { gas: 80_000n, value })
    }
    model.debit(k.weth, from, amount)
    send('weth withdraw', from, k.weth, abi, 'withdraw', [amount], { gas: 80_000n })
  }
  const erc721 = () => {
    const abi = compiled.DemoERC721.abi
    const kind = prng.int(10)
    const random = prng.int
    if (kind < 3) {
      const from = wallet()
      const to = prng.chance(0.7) ? from : other(from)
      return send('erc721 mint', from, prng.pick(k.erc721), abi, 'mint', [to], { gas: 200_000n })
    }
    if (kind === 3) {
      const approval = prng.chance(0.5) ? undefined : prng.pick([undefined, ...model.approvals()])
      if (approval) {
        const nft = model.takeNft({ contracts: [approval.contract], owner: approval.owner, random })
        if (nft) {
          // One use per approval, so a revoke can never race this transfer in one block.
          model.revokeApproval(approval)
          const args = [nft.owner, other(nft.owner), nft.tokenId]
          return send(
            'erc721 operator transfer',
            approval.operator,
            nft.contract,
            abi,
            'transferFrom',
            args,
          )
        }
      }
      const from = wallet()
      return send('erc721 setApprovalForAll', from, prng.pick(k.erc721), abi, 'setApprovalForAll', [
        other(from),
        true,
      ])
    }
    if (kind === 4 && model.approvals().length > 0) {
      const approval = prng.pick(model.approvals())
      model.revokeApproval(approval)
      const args = [approval.operator, false]
      return send(
        'erc721 revoke',
        approval.owner,
        approval.contract,
        abi,
        'setApprovalForAll',
        args,
      )
    }
    const nft = model.takeNft({ contracts: k.erc721, random })
    if (!nft) return nativeSend()
    const { owner, contract, tokenId } = nft
    if (kind === 5) return send('erc721 burn', owner, contract, abi, 'burn', [tokenId])
    if (kind === 6) send('erc721 approve', owner, contract, abi, 'approve', [other(owner), tokenId])
    const fn = prng.chance(0.5) ? 'safeTransferFrom' : 'transferFrom'
    send(`erc721 ${fn}`, owner, contract, abi, fn, [owner, other(owner), tokenId])
  }
  const erc1155 = () => {
    const abi = compiled.DemoERC1155.abi
    const from = wallet()
    const ids = [1n, 2n, 3n, 4n, 5n, 6n].filter(
      (id) => model.spendable(erc1155Key(k.erc1155, id), from) > 0n,
    )
    const kind = prng.int(6)
    if (kind === 0 || ids.length === 0) {
      const args = [from, BigInt(prng.between(1, 6)), BigInt(prng.between(1, 50))]
      return send('erc1155 mint', from, k.erc1155, abi, 'mint', args)
    }
    const chosen = prng.sample(ids, kind >= 4 ? prng.between(1, ids.length) : 1)
    const amounts = chosen.map((id) => {
      const amount = part(model.spendable(erc1155Key(k.erc1155, id), from)) || 1n
      model.debit(erc1155Key(k.erc1155, id), from, amount)
      return amount
    })
    const to = other(from)
    if (kind === 1)
      return send('erc1155 burn', from, k.erc1155, abi, 'burn', [from, chosen[0], amounts[0]])
    if (kind <= 3)
      return send('erc1155 transfer', from, k.erc1155, abi, 'safeTransferFrom', [
        from,
        to,
        chosen[0],
        amounts[0],
        '0x',
      ])
    if (kind === 4)
      return send('erc1155 burnBatch', from, k.erc1155, abi, 'burnBatch', [from, chosen, amounts], {
        gas: 300_000n,
      })
    send(
      'erc1155 batch transfer',
      from,
      k.erc1155,
      abi,
      'safeBatchTransferFrom',
      [from, to, chosen, amounts, '0x'],
      {
        gas: 300_000n,
      },
    )
  }
  const swap = () => {
    const from = wallet()
    const router = loadArtifact('UniswapV2Router02').abi
    const kind = prng.int(4)
    if (kind === 0) {
      const args = [0n, [k.weth, demo], from, DEADLINE]
      return send('v2 swap eth→demo', from, k.v2Router, router, 'swapExactETHForTokens', args, {
        gas: 300_000n,
        value: eth(10, 2000),
      })
    }
    const tokenIn = kind === 3 ? k.weth : prng.pick([demo, dusd])
    const amount = part(model.spendable(tokenIn, from)) / 10n
    if (amount === 0n) return nativeSend()
    model.debit(tokenIn, from, amount)
    if (kind === 1) {
      const path = tokenIn === demo ? [demo, dusd] : [dusd, demo]
      const args = [amount, 0n, path, from, DEADLINE]
      return send('v2 swap tokens', from, k.v2Router, router, 'swapExactTokensForTokens', args, {
        gas: 300_000n,
      })
    }
    if (kind === 2) {
      const path = tokenIn === demo ? [demo, k.weth] : [dusd, demo, k.weth]
      const args = [amount, 0n, path, from, DEADLINE]
      return send('v2 swap tokens→eth', from, k.v2Router, router, 'swapExactTokensForETH', args, {
        gas: 400_000n,
      })
    }
    const params = {
      tokenIn: k.weth,
      tokenOut: demo,
      fee: V3_FEE,
      recipient: from,
      deadline: DEADLINE,
      amountIn: amount,
      amountOutMinimum: 0n,
      sqrtPriceLimitX96: 0n,
    }
    send(
      'v3 swap weth→demo',
      from,
      k.swapRouter,
      loadArtifact('SwapRouter').abi,
      'exactInputSingle',
      [params],
      {
        gas: 500_000n,
      },
    )
  }

  return {
    model,
    seed: () => {
      for (const w of wallets) {
        for (const f of fungibles) {
          const amount = units(f.decimals, 1_000, 1_000_000)
          model.credit(f.address, w, amount)
          send('seed mint', deployer, f.address, erc20, 'mint', [w, amount])
        }
        const value = eth(1000, 20_000)
        model.credit(k.weth, w, value)
        send('seed weth', w, k.weth, loadArtifact('WETH9').abi, 'deposit', [], {
          value,
          gas: 80_000n,
        })
        for (const nft of k.erc721)
          send('seed erc721', w, nft, compiled.DemoERC721.abi, 'mint', [w], { gas: 200_000n })
        const ids = prng.sample([1n, 2n, 3n, 4n, 5n, 6n], prng.between(1, 4))
        const amounts = ids.map(() => BigInt(prng.between(1, 100)))
        send(
          'seed erc1155',
          w,
          k.erc1155,
          compiled.DemoERC1155.abi,
          'mintBatch',
          [w, ids, amounts],
          {
            gas: 300_000n,
          },
        )
      }
    },
    seedUniswap: () => seedUniswap({ queue, compiled, contracts: k, wallets, deployer }),
    randomAction: () => {
      const roll = prng.int(100)
      if (roll < 32) transferToken(false)
      else if (roll < 40) transferToken(true)
      else if (roll < 50) nativeSend()
      else if (roll < 58) forward()
      else if (roll < 65) weth()
      else if (roll < 78) erc721()
      else if (roll < 90) erc1155()
      else swap()
    },
    rebase: () => {
      // Mostly up (yield), sometimes down (slashing).
      const permille = prng.chance(0.25) ? prng.between(970, 995) : prng.between(1005, 1080)
      const next = (rebaseIndex * BigInt(permille)) / 1000n
      model.scale(k.rebasing, next, rebaseIndex)
      rebaseIndex = next
      send('rebase', wallet(), k.rebasing, compiled.RebasingToken.abi, 'rebase', [next], {
        gas: 60_000n,
      })
    },
    airdrop: () => {
      const abi = compiled.SpamAirdropper.abi
      for (let i = 0; i < wallets.length; i += 30)
        send('spam airdrop', deployer, k.spamNft, abi, 'airdrop', [wallets.slice(i, i + 30)], {
          gas: 3_000_000n,
        })
    },
  }
}
