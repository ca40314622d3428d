import type { ApprovalKind } from '../../store/schema.ts'
import { APPROVAL_FOR_ALL_TOPIC, APPROVAL_TOPIC, TRANSFER_TOPIC } from '../abis.ts'
import { decodeLog } from '../decode/decodeLog.ts'
import { ZERO_ADDRESS } from '../derive/zeroAddress.ts'
import type { ChainBlock, ChainLog } from '../fetch/chainBlock.ts'
import type { Address, Hex } from '../types.ts'
import {
  PERMIT2_ADDRESS,
  PERMIT2_APPROVAL_TOPIC,
  PERMIT2_LOCKDOWN_TOPIC,
  PERMIT2_PERMIT_TOPIC,
} from './permit2.ts'

export type ApprovalKey = { owner: Address; token: Address; spender: Address; kind: ApprovalKind }

/** The last approval event of a key in the batch. */
export type ApprovalEvent = ApprovalKey & { block: number; time: number; txHash: Hex }

export type ApprovalEvents = {
  /** Keyed by `approvalKeyId`; the last event per key wins. */
  approved: Map<string, ApprovalEvent>
  /** `${owner}|${token}`: tokens that left the owner (a transferFrom may have spent an allowance). */
  spent: Set<string>
}

export const approvalKeyId = (k: Pick<ApprovalKey, 'owner' | 'token' | 'spender' | 'kind'>) =>
  `${k.owner}|${k.token}|${k.spender}|${k.kind}`

const WORD = /^0x[0-9a-fA-F]{64}$/
const topicAddress = (topic: Hex | undefined): Address | undefined =>
  topic && WORD.test(topic) ? (`0x${topic.slice(26)}`.toLowerCase() as Address) : undefined
const wordAddress = (data: Hex, index: number): Address | undefined => {
  const word = data.slice(2 + index * 64, 2 + (index + 1) * 64)
  return word.length === 64 ? (`0x${word.slice(24)}`.toLowerCase() as Address) : undefined
}

/**
 * Pure: which approvals a batch may have changed. ERC20 `Approval` (EIP-2612 `permit` emits
 * it too) and `ApprovalForAll` on any contract; Permit2's `Approval`, `Permit` and `Lockdown`
 * on the Permit2 contract only (anyone can emit look-alike events elsewhere). ERC20 transfers
 * out of a wallet mark (owner, token) spent: `transferFrom` lowers an allowance (direct or
 * through Permit2) without an event. The amounts themselves are read from the node.
 */
export function collectApprovalEvents(blocks: readonly ChainBlock[]): ApprovalEvents {
  const approved = new Map<string, ApprovalEvent>()
  const spent = new Set<string>()
  for (const block of blocks) {
    const at = { block: Number(block.number), time: block.timestamp }
    const add = (key: ApprovalKey, log: ChainLog) =>
      approved.set(approvalKeyId(key), {
        ...key,
        ...at,
        txHash: log.transactionHash.toLowerCase() as Hex,
      })
    for (const tx of block.transactions) {
      for (const log of tx.logs) {
        if (log.address.toLowerCase() === PERMIT2_ADDRESS) {
          const key = permit2Key(log.topics, log.data)
          if (key) add(key, log)
          continue
        }
        const topic0 = log.topics[0]?.toLowerCase()
        if (topic0 === TRANSFER_TOPIC) {
          // An ERC20 transfer (three topics) out of a wallet: read without decoding the rest, as
          // most logs are these. A malformed one marked here costs a read, never a wrong value.
          const from = log.topics.length === 3 ? topicAddress(log.topics[1]) : undefined
          if (from && from !== ZERO_ADDRESS) spent.add(`${from}|${log.address.toLowerCase()}`)
          continue
        }
        // Other logs are decoded only when they are an approval (deriveHistory decodes them all).
        if (topic0 !== APPROVAL_TOPIC && topic0 !== APPROVAL_FOR_ALL_TOPIC) continue
        for (const event of decodeLog(log)) {
          if (event.type === 'erc20_approval') {
            add(
              { owner: event.owner, token: event.token, spender: event.spender, kind: 'erc20' },
              log,
            )
          } else if (event.type === 'approval_for_all') {
            add(
              {
                owner: event.owner,
                token: event.token,
                spender: event.operator,
                kind: 'operator',
              },
              log,
            )
          }
        }
      }
    }
  }
  return { approved, spent }
}

function permit2Key(topics: readonly Hex[], data: Hex): ApprovalKey | undefined {
  const owner = topicAddress(topics[1])
  if (!owner) return undefined
  if (topics[0] === PERMIT2_APPROVAL_TOPIC || topics[0] === PERMIT2_PERMIT_TOPIC) {
    const token = topicAddress(topics[2])
    const spender = topicAddress(topics[3])
    return token && spender ? { owner, token, spender, kind: 'permit2' } : undefined
  }
  if (topics[0] === PERMIT2_LOCKDOWN_TOPIC) {
    const token = wordAddress(data, 0)
    const spender = wordAddress(data, 1)
    return token && spender ? { owner, token, spender, kind: 'permit2' } : undefined
  }
  return undefined
}
