import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  parseSignature,
  type WalletClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { type AnvilAccount, anvilAccounts } from '../../src/dev/anvilAccounts.ts'
import { compileContracts } from '../../src/dev/compileContracts.ts'
import { createPrng } from '../../src/dev/createPrng.ts'
import type { Anvil } from '../../src/dev/startAnvil.ts'
import { PERMIT2_ADDRESS } from '../../src/evm/approvals/permit2.ts'

const MAX = 2n ** 256n - 1n
const MAX160 = 2n ** 160n - 1n
const FAR = 2n ** 40n

export type ApprovalWorld = {
  pub: PublicClient
  wallets: AnvilAccount[]
  /** DemoERC20 with 6 decimals: the chain's USD anchor, so it is priced at 1.00. */
  usd: Address
  tkn: Address
  /** EIP-2612 token. */
  ptk: Address
  nft721: Address
  nft1155: Address
  erc20s: Address[]
  nfts: Address[]
  /** Runs `count` random approval actions; returns the last block. */
  act(count: number, seed: number): Promise<bigint>
  /** The node's view at a block: every non-zero allowance and true operator. */
  nodeApprovals(block: bigint): Promise<Map<string, bigint>>
}

/**
 * Tokens, NFTs and a Permit2-compatible contract at Permit2's address, held by a few wallets
 * who approve, permit, spend with transferFrom (directly and through Permit2), lock down and
 * set operators at random.
 */
export async function createApprovalWorld(anvil: Anvil): Promise<ApprovalWorld> {
  const compiled = await compileContracts()
  const wallets = anvilAccounts(6)
  const [deployer] = wallets as [AnvilAccount]
  const chain = { ...foundry, id: anvil.chainId }
  const transport = http(anvil.rpcUrl)
  const pub = createPublicClient({ chain, transport }) as PublicClient
  const wallet: WalletClient = createWalletClient({ chain, transport })
  const wait = async (hash: Hex) => {
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
    return receipt
  }
  const deploy = async (name: keyof typeof compiled, args: readonly unknown[] = []) => {
    const { abi, bytecode } = compiled[name]
    const hash = await wallet.deployContract({
      abi,
      bytecode,
      args,
      account: deployer.address,
      chain,
    })
    return (await wait(hash)).contractAddress!.toLowerCase() as Address
  }
  const send = async (
    from: Address,
    to: Address,
    abi: Abi,
    functionName: string,
    args: unknown[],
  ) =>
    wait(
      await wallet.writeContract({
        address: to,
        abi,
        functionName,
        args,
        account: from,
        chain,
        gas: 1_000_000n,
      }),
    )

  const usd = await deploy('DemoERC20', ['Dollar', 'USDX', 6])
  const tkn = await deploy('DemoERC20', ['Token', 'TKN', 18])
  const ptk = await deploy('PermitToken', ['Permit Token', 'PTK'])
  const nft721 = await deploy('DemoERC721', ['Art', 'ART', true, ''])
  const nft1155 = await deploy('DemoERC1155', ['Items', 'ITM', 'https://items.example/{id}'])
  // Permit2 lives at one address on every chain; put a compatible contract there.
  const lite = await deploy('Permit2Lite')
  const code = await pub.getCode({ address: lite })
  await pub.request({ method: 'anvil_setCode' as never, params: [PERMIT2_ADDRESS, code] as never })
  const erc20s = [usd, tkn, ptk]
  const nfts = [nft721, nft1155]
  const erc20 = compiled.DemoERC20.abi
  for (const w of wallets) {
    await send(w.address, usd, erc20, 'mint', [w.address, 1_000_000n * 10n ** 6n])
    await send(w.address, tkn, erc20, 'mint', [w.address, 1000n * 10n ** 18n])
    await send(w.address, ptk, compiled.PermitToken.abi, 'mint', [w.address, 1000n * 10n ** 18n])
    await send(w.address, nft721, compiled.DemoERC721.abi, 'mint', [w.address])
  }

  const p2 = compiled.Permit2Lite.abi
  const ptkAbi = compiled.PermitToken.abi
  const nodeApprovals: ApprovalWorld['nodeApprovals'] = async (block) => {
    const out = new Map<string, bigint>()
    const read = (address: Address, abi: Abi, functionName: string, args: unknown[]) =>
      pub.readContract({ address, abi, functionName, args, blockNumber: block })
    for (const owner of wallets.map((w) => w.address)) {
      for (const spender of [...wallets.map((w) => w.address), PERMIT2_ADDRESS]) {
        for (const token of erc20s) {
          const a = (await read(token, erc20, 'allowance', [owner, spender])) as bigint
          if (a > 0n) out.set(`${owner}|${token}|${spender}|erc20`, a)
          if (spender === PERMIT2_ADDRESS) continue
          const [amount] = (await read(PERMIT2_ADDRESS, p2, 'allowance', [
            owner,
            token,
            spender,
          ])) as [bigint]
          if (amount > 0n) out.set(`${owner}|${token}|${spender}|permit2`, amount)
        }
        for (const nft of nfts) {
          const ok = (await read(nft, compiled.DemoERC721.abi, 'isApprovedForAll', [
            owner,
            spender,
          ])) as boolean
          if (ok) out.set(`${owner}|${nft}|${spender}|operator`, 1n)
        }
      }
    }
    return out
  }

  const balanceOf = (token: Address, owner: Address) =>
    pub.readContract({
      address: token,
      abi: erc20,
      functionName: 'balanceOf',
      args: [owner],
    }) as Promise<bigint>
  const min = (a: bigint, b: bigint) => (a < b ? a : b)

  const act: ApprovalWorld['act'] = async (count, seed) => {
    const prng = createPrng(seed)
    const pick = <T>(list: readonly T[]) => list[prng.int(list.length)] as T
    const amount = () => pick([0n, MAX, 10n ** 18n, 5n * 10n ** 17n, 123_456n, 10n ** 6n])
    let last = 0n
    // Pairs that were granted something: transferFrom picks among them, so it happens often.
    const granted: { owner: AnvilAccount; spender: AnvilAccount; token: Address }[] = []
    for (let i = 0; i < count; i++) {
      let owner = pick(wallets)
      let spender = pick(wallets.filter((w) => w !== owner))
      let token = pick(erc20s)
      const kind = prng.int(10)
      if ((kind === 2 || kind === 5) && granted.length > 0)
        ({ owner, spender, token } = pick(granted))
      if (kind === 0 || kind === 1 || kind === 4 || kind === 8)
        granted.push({ owner, spender, token })
      let receipt: { blockNumber: bigint } | undefined
      if (kind === 0) {
        receipt = await send(owner.address, token, erc20, 'approve', [spender.address, amount()])
      } else if (kind === 1) {
        // EIP-2612: the owner signs, the spender submits.
        const signer = privateKeyToAccount(owner.privateKey)
        const nonce = (await pub.readContract({
          address: ptk,
          abi: ptkAbi,
          functionName: 'nonces',
          args: [owner.address],
        })) as bigint
        const value = amount()
        token = ptk
        granted[granted.length - 1] = { owner, spender, token }
        const signature = await signer.signTypedData({
          domain: {
            name: 'Permit Token',
            version: '1',
            chainId: anvil.chainId,
            verifyingContract: ptk,
          },
          types: {
            Permit: [
              { name: 'owner', type: 'address' },
              { name: 'spender', type: 'address' },
              { name: 'value', type: 'uint256' },
              { name: 'nonce', type: 'uint256' },
              { name: 'deadline', type: 'uint256' },
            ],
          },
          primaryType: 'Permit',
          message: { owner: owner.address, spender: spender.address, value, nonce, deadline: FAR },
        })
        const { v, r, s } = parseSignature(signature)
        receipt = await send(spender.address, ptk, ptkAbi, 'permit', [
          owner.address,
          spender.address,
          value,
          FAR,
          Number(v),
          r,
          s,
        ])
      } else if (kind === 2) {
        // A spender uses part of an allowance it has (no Approval event from OZ 5).
        const allowed = (await pub.readContract({
          address: token,
          abi: erc20,
          functionName: 'allowance',
          args: [owner.address, spender.address],
        })) as bigint
        const wanted = allowed === MAX ? 10n ** 6n : allowed / 2n + 1n
        const take = min(wanted, await balanceOf(token, owner.address))
        if (allowed === 0n || take === 0n) continue
        receipt = await send(spender.address, token, erc20, 'transferFrom', [
          owner.address,
          spender.address,
          take,
        ])
      } else if (kind === 3) {
        receipt = await send(owner.address, token, erc20, 'approve', [PERMIT2_ADDRESS, MAX])
      } else if (kind === 4) {
        const value = pick([0n, MAX160, 10n ** 18n, 10n ** 6n])
        receipt = await send(owner.address, PERMIT2_ADDRESS, p2, 'approve', [
          token,
          spender.address,
          value,
          // A date in 2106, or the largest uint48: how wallets say "never".
          pick([2 ** 32, 2 ** 48 - 1]),
        ])
      } else if (kind === 5) {
        // Permit2 transferFrom: spends the Permit2 allowance; the token only shows a Transfer.
        const [allowed] = (await pub.readContract({
          address: PERMIT2_ADDRESS,
          abi: p2,
          functionName: 'allowance',
          args: [owner.address, token, spender.address],
        })) as [bigint]
        const direct = (await pub.readContract({
          address: token,
          abi: erc20,
          functionName: 'allowance',
          args: [owner.address, PERMIT2_ADDRESS],
        })) as bigint
        const wanted = allowed === MAX160 ? 10n ** 6n : allowed / 2n + 1n
        const take = min(wanted, await balanceOf(token, owner.address))
        if (allowed === 0n || take === 0n) continue
        // Permit2 moves tokens with its own ERC20 allowance: grant it first when short.
        if (direct < take)
          await send(owner.address, token, erc20, 'approve', [PERMIT2_ADDRESS, MAX])
        receipt = await send(spender.address, PERMIT2_ADDRESS, p2, 'transferFrom', [
          owner.address,
          spender.address,
          take,
          token,
        ])
      } else if (kind === 6) {
        receipt = await send(owner.address, PERMIT2_ADDRESS, p2, 'lockdown', [
          [{ token, spender: spender.address }],
        ])
      } else if (kind === 7) {
        const nft = pick(nfts)
        receipt = await send(owner.address, nft, compiled.DemoERC1155.abi, 'setApprovalForAll', [
          spender.address,
          prng.chance(0.6),
        ])
      } else if (kind === 8) {
        // Permit2 permit: the owner signs, the spender submits.
        const [, , nonce] = (await pub.readContract({
          address: PERMIT2_ADDRESS,
          abi: p2,
          functionName: 'allowance',
          args: [owner.address, token, spender.address],
        })) as [bigint, number, number]
        const value = pick([MAX160, 10n ** 18n, 10n ** 6n])
        const signature = await privateKeyToAccount(owner.privateKey).signTypedData({
          domain: {
            name: 'Permit2',
            version: '1',
            chainId: anvil.chainId,
            verifyingContract: PERMIT2_ADDRESS,
          },
          types: {
            PermitSingle: [
              { name: 'owner', type: 'address' },
              { name: 'token', type: 'address' },
              { name: 'spender', type: 'address' },
              { name: 'amount', type: 'uint160' },
              { name: 'expiration', type: 'uint48' },
              { name: 'nonce', type: 'uint48' },
              { name: 'sigDeadline', type: 'uint256' },
            ],
          },
          primaryType: 'PermitSingle',
          message: {
            owner: owner.address,
            token,
            spender: spender.address,
            amount: value,
            expiration: Number(FAR),
            nonce,
            sigDeadline: FAR,
          },
        })
        const { v, r, s } = parseSignature(signature)
        receipt = await send(spender.address, PERMIT2_ADDRESS, p2, 'permit', [
          owner.address,
          token,
          spender.address,
          value,
          Number(FAR),
          FAR,
          Number(v),
          r,
          s,
        ])
      } else {
        // An ordinary transfer: the owner moves its own tokens.
        const value = min(1000n, await balanceOf(token, owner.address))
        if (value === 0n) continue
        receipt = await send(owner.address, token, erc20, 'transfer', [spender.address, value])
      }
      last = receipt.blockNumber
    }
    return last
  }

  return { pub, wallets, usd, tkn, ptk, nft721, nft1155, erc20s, nfts, act, nodeApprovals }
}
