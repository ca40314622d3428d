import { decodeFunctionResult, parseAbi, toFunctionSelector } from 'viem'
import type { StateReader } from '../../store/createStore.ts'
import type { ApprovalTable } from '../../store/schema.ts'
import type { StateChange } from '../../store/stateTables.ts'
import { toU256 } from '../../store/u256.ts'
import { encodeAddressCall } from '../abi/encodeAddressCall.ts'
import { erc20Abi } from '../abis.ts'
import type { ChainBlock } from '../fetch/chainBlock.ts'
import type { ContractCall } from '../read/readAtBlock.ts'
import type { Hex } from '../types.ts'
import {
  type ApprovalEvent,
  type ApprovalKey,
  approvalKeyId,
  collectApprovalEvents,
} from './collectApprovalEvents.ts'
import { PERMIT2_ADDRESS, permit2Abi } from './permit2.ts'

const operatorAbi = parseAbi([
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
])

const ALLOWANCE = toFunctionSelector('allowance(address,address)')
const IS_APPROVED_FOR_ALL = toFunctionSelector('isApprovedForAll(address,address)')
const PERMIT2_ALLOWANCE = toFunctionSelector('allowance(address,address,address)')

type Origin = Pick<ApprovalTable, 'approved_block' | 'approved_time' | 'tx_hash'>

/** The node reads a batch's approval changes need, and what to make of their answers. */
export type ApprovalPlan = {
  /** Calls at the batch's last block (`readBatchState` makes them with its own). */
  calls: ContractCall[]
  /** The `approvals` changes, from the answers to `calls` in their order. */
  finish(results: readonly (Hex | undefined)[]): StateChange[]
}

/**
 * The `approvals` rows a batch leaves behind: every approval it emitted, and every stored
 * allowance of a token that left its owner (a `transferFrom` spends without an event), read
 * from the node at the batch's last block, so amounts are exact whatever the token does.
 * A zero allowance or a revoked operator deletes the row; a call that reverts changes nothing.
 * Planned here (the store read), read with the batch's other reads of that block (one
 * `eth_call` for all of them where they fit).
 */
export async function planApprovalChanges({
  state,
  chainId,
  blocks,
}: {
  /** The store with the batches not yet committed. */
  state: Pick<StateReader, 'readState'>
  chainId: number
  blocks: readonly ChainBlock[]
}): Promise<ApprovalPlan> {
  const last = blocks[blocks.length - 1]
  if (!last) return { calls: [], finish: () => [] }
  const { approved, spent } = collectApprovalEvents(blocks)

  // Stored allowances of the tokens that left their owners (every spender): keep their
  // approval's origin.
  const toRead = new Map<string, ApprovalKey & { origin: Origin }>()
  for (const event of approved.values()) toRead.set(approvalKeyId(event), withOrigin(event))
  if (spent.size > 0) {
    const stored = await state.readState({
      table: 'approvals',
      chainId,
      keys: [...spent].map((pair) => {
        const [owner = '', token = ''] = pair.split('|')
        return { owner, token }
      }),
    })
    for (const row of stored) {
      if (row.kind === 'operator') continue
      const id = approvalKeyId(row as ApprovalKey)
      if (toRead.has(id)) continue
      toRead.set(id, {
        ...(row as ApprovalKey),
        origin: {
          approved_block: row.approved_block,
          approved_time: row.approved_time,
          tx_hash: row.tx_hash,
        },
      })
    }
  }

  const keys = [...toRead.values()]
  return {
    calls: keys.map(allowanceCall),
    finish(results) {
      const changes: StateChange[] = []
      for (const [i, key] of keys.entries()) {
        const read = decodeAllowance(key, results[i])
        if (read === undefined) continue
        const id = { owner: key.owner, chain_id: chainId, token: key.token, spender: key.spender }
        changes.push({
          table: 'approvals',
          key: { ...id, kind: key.kind },
          row:
            read.amount === 0n
              ? null
              : {
                  ...id,
                  kind: key.kind,
                  allowance: toU256(read.amount),
                  block_number: Number(last.number),
                  ...key.origin,
                  expiration: read.expiration,
                },
        })
      }
      return changes
    },
  }
}

function withOrigin(event: ApprovalEvent): ApprovalKey & { origin: Origin } {
  const { owner, token, spender, kind } = event
  return {
    owner,
    token,
    spender,
    kind,
    origin: { approved_block: event.block, approved_time: event.time, tx_hash: event.txHash },
  }
}

function allowanceCall(key: ApprovalKey): ContractCall {
  switch (key.kind) {
    case 'erc20':
      return { to: key.token, data: encodeAddressCall(ALLOWANCE, key.owner, key.spender) }
    case 'operator':
      return {
        to: key.token,
        data: encodeAddressCall(IS_APPROVED_FOR_ALL, key.owner, key.spender),
      }
    case 'permit2':
      return {
        to: PERMIT2_ADDRESS,
        data: encodeAddressCall(PERMIT2_ALLOWANCE, key.owner, key.token, key.spender),
      }
    default: {
      const never: never = key.kind
      throw new Error(`unknown approval kind ${String(never)}`)
    }
  }
}

/** The amount (operators: 1 or 0) and Permit2's expiry; undefined when the call failed. */
function decodeAllowance(
  key: ApprovalKey,
  result: Hex | undefined,
): { amount: bigint; expiration: number | null } | undefined {
  if (result === undefined || result === '0x') return undefined
  try {
    switch (key.kind) {
      case 'erc20':
        return {
          amount: decodeFunctionResult({ abi: erc20Abi, functionName: 'allowance', data: result }),
          expiration: null,
        }
      case 'operator': {
        const approved = decodeFunctionResult({
          abi: operatorAbi,
          functionName: 'isApprovedForAll',
          data: result,
        })
        return { amount: approved ? 1n : 0n, expiration: null }
      }
      case 'permit2': {
        const [amount, expiration] = decodeFunctionResult({
          abi: permit2Abi,
          functionName: 'allowance',
          data: result,
        })
        return { amount, expiration: Number(expiration) }
      }
      default: {
        const never: never = key.kind
        throw new Error(`unknown approval kind ${String(never)}`)
      }
    }
  } catch {
    // A contract answering something that is not an allowance: nothing to record.
    return undefined
  }
}
