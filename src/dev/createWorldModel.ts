import { decodeAbiParameters, keccak256, stringToHex } from 'viem'
import type { Address, Hex } from '../evm/types.ts'
import type { MinedReceipt } from './createTxQueue.ts'

const topic = (signature: string) => keccak256(stringToHex(signature))
export const TRANSFER_TOPIC = topic('Transfer(address,address,uint256)')
const APPROVAL_FOR_ALL_TOPIC = topic('ApprovalForAll(address,address,bool)')
const TRANSFER_SINGLE_TOPIC = topic('TransferSingle(address,address,address,uint256,uint256)')
const TRANSFER_BATCH_TOPIC = topic('TransferBatch(address,address,address,uint256[],uint256[])')

export type Nft = { contract: Address; tokenId: bigint; owner: Address }
export type OperatorApproval = { contract: Address; owner: Address; operator: Address }

/**
 * What the world generator believes each wallet can spend, kept so every generated
 * transaction succeeds without asking the node. It errs low: a sender is debited when a
 * transaction is queued, a recipient is credited only after the block is mined (so the
 * order of transactions inside a block never matters), and fee/rebase/swap proceeds are
 * under-counted. NFT ownership and ERC1155 receipts are learned from the mined logs.
 */
export type WorldModel = {
  spendable(token: Address, wallet: Address): bigint
  debit(token: Address, wallet: Address, amount: bigint): void
  /** Applied at the next `afterFlush`. */
  credit(token: Address, wallet: Address, amount: bigint): void
  /** Multiplies every balance of `token` by num/den (a rebase). */
  scale(token: Address, num: bigint, den: bigint): void
  /** A random unlocked NFT of `contracts` (and of `owner`, if given); locks it. */
  takeNft(args: {
    contracts: Address[]
    owner?: Address
    random: (n: number) => number
  }): Nft | undefined
  approvals(): OperatorApproval[]
  revokeApproval(approval: OperatorApproval): void
  /** Runs after the next flush, e.g. a transferFrom that needs its approve mined first. */
  defer(action: () => void): void
  afterFlush(receipts: MinedReceipt[]): void
}

export function createWorldModel({
  erc721s,
  erc1155s,
}: {
  erc721s: Address[]
  erc1155s: Address[]
}): WorldModel {
  const balances = new Map<string, bigint>()
  const credits: { key: string; amount: bigint }[] = []
  const nfts = new Map<string, Nft>()
  const locked = new Set<string>()
  let approvals: OperatorApproval[] = []
  let deferred: (() => void)[] = []
  const key = (token: Address, wallet: Address) => `${token}:${wallet}`
  const is721 = new Set(erc721s)
  const is1155 = new Set(erc1155s)

  const addressFromTopic = (t: Hex | undefined) => `0x${t!.slice(26)}` as Address
  const add = (k: string, amount: bigint) => balances.set(k, (balances.get(k) ?? 0n) + amount)

  return {
    spendable: (token, wallet) => balances.get(key(token, wallet)) ?? 0n,
    debit: (token, wallet, amount) => {
      const k = key(token, wallet)
      const left = (balances.get(k) ?? 0n) - amount
      if (left < 0n) throw new Error(`world model: ${wallet} overspends ${token}`)
      balances.set(k, left)
    },
    credit: (token, wallet, amount) => {
      credits.push({ key: key(token, wallet), amount })
    },
    scale: (token, num, den) => {
      for (const [k, v] of balances) if (k.startsWith(`${token}:`)) balances.set(k, (v * num) / den)
    },
    takeNft: ({ contracts, owner, random }) => {
      const candidates = [...nfts.entries()].filter(
        ([k, nft]) =>
          !locked.has(k) &&
          contracts.includes(nft.contract) &&
          (owner === undefined || nft.owner === owner),
      )
      if (candidates.length === 0) return undefined
      const [k, nft] = candidates[random(candidates.length)]!
      locked.add(k)
      return nft
    },
    approvals: () => approvals,
    revokeApproval: (approval) => {
      approvals = approvals.filter((a) => a !== approval)
    },
    defer: (action) => {
      deferred.push(action)
    },
    afterFlush: (receipts) => {
      for (const { key: k, amount } of credits.splice(0)) add(k, amount)
      locked.clear()
      for (const receipt of receipts)
        for (const log of receipt.logs) {
          const contract = log.address.toLowerCase() as Address
          const [t0, t1, t2, t3] = log.topics
          if (is721.has(contract) && t0 === TRANSFER_TOPIC && t3) {
            const tokenId = BigInt(t3)
            const to = addressFromTopic(t2)
            const k = `${contract}:${tokenId}`
            if (BigInt(to) === 0n) nfts.delete(k)
            else nfts.set(k, { contract, tokenId, owner: to })
          } else if (is721.has(contract) && t0 === APPROVAL_FOR_ALL_TOPIC) {
            const owner = addressFromTopic(t1)
            const operator = addressFromTopic(t2)
            if (BigInt(log.data) === 1n) approvals.push({ contract, owner, operator })
          } else if (is1155.has(contract) && t0 === TRANSFER_SINGLE_TOPIC) {
            const to = addressFromTopic(t3)
            const [id, value] = decodeAbiParameters(
              [{ type: 'uint256' }, { type: 'uint256' }],
              log.data,
            )
            if (BigInt(to) !== 0n) add(`${contract}#${id}:${to}`, value)
          } else if (is1155.has(contract) && t0 === TRANSFER_BATCH_TOPIC) {
            const to = addressFromTopic(t3)
            const [ids, values] = decodeAbiParameters(
              [{ type: 'uint256[]' }, { type: 'uint256[]' }],
              log.data,
            )
            if (BigInt(to) !== 0n)
              for (const [i, id] of ids.entries()) add(`${contract}#${id}:${to}`, values[i]!)
          }
        }
      const actions = deferred
      deferred = []
      for (const action of actions) action()
    },
  }
}

/** The pseudo token address under which the model keeps ERC1155 balances of one id. */
export function erc1155Key(contract: Address, id: bigint): Address {
  return `${contract}#${id}` as Address
}
