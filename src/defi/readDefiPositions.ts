import { toHex, zeroAddress } from 'viem'
import { callContracts } from '../evm/read/callContracts.ts'
import type { ContractCall } from '../evm/read/readAtBlock.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Hex } from '../evm/types.ts'
import { BaseError, RetryableError } from '../internal/errors.ts'
import { readAavePosition } from './readAavePosition.ts'
import { readErc4626Position } from './readErc4626Position.ts'
import { readLidoPosition } from './readLidoPosition.ts'
import { readUniswapV2Position } from './readUniswapV2Position.ts'
import { readUniswapV3Position } from './readUniswapV3Position.ts'
import { readUniswapV4Position } from './readUniswapV4Position.ts'
import type {
  DefiCandidate,
  DefiPosition,
  PositionOutcome,
  PositionRead,
  SkipReason,
} from './types.ts'

export type SkippedCandidate = { candidate: DefiCandidate; reason: SkipReason }

/** Amounts at or above this are not believed (no real token balance comes near 2^128). */
const MAX_AMOUNT = 1n << 128n
const MAX_ROUNDS = 2

/**
 * Values DeFi positions from the node's state at one block, in at most two batched rounds of
 * `eth_call`s (identical calls sent once), pinned to `blockHash` (EIP-1898) so every read sees
 * the same state even if the node switches to a sibling block meanwhile. Candidates that
 * cannot be valued are returned as `skipped` with a reason; transport failures throw, as does
 * a node that fails every call of the first round and a call no contract can revert too
 * (`assertNodeCalls`): the chain is unavailable then, not every position skipped.
 * Amounts are raw integers of each token; nothing is priced here.
 */
export async function readDefiPositions({
  rpc,
  blockNumber,
  blockHash,
  candidates,
  signal,
}: {
  rpc: RpcClient
  blockNumber: bigint
  /** Where given, every call reads this block (EIP-1898), else `blockNumber`. */
  blockHash?: Hex | undefined
  candidates: readonly DefiCandidate[]
  signal?: AbortSignal
}): Promise<{ positions: DefiPosition[]; skipped: SkippedCandidate[] }> {
  const reads = candidates.map(startRead)
  let steps = reads.map((read) => read.next())
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const waiting = steps.flatMap((step, i) => (step.done ? [] : [{ i, calls: step.value }]))
    if (waiting.length === 0) break
    const unique = new Map<string, number>()
    const calls: ContractCall[] = []
    const slots = waiting.map(({ calls: wanted }) =>
      wanted.map((call) => {
        const key = `${call.to.toLowerCase()}|${call.data}`
        let slot = unique.get(key)
        if (slot === undefined) {
          slot = calls.push(call) - 1
          unique.set(key, slot)
        }
        return slot
      }),
    )
    const results = await callContracts({
      rpc,
      blockNumber,
      blockHash,
      calls,
      ...(signal ? { signal } : {}),
    })
    if (round === 0 && results.every((r) => r === undefined)) {
      await assertNodeCalls({ rpc, blockNumber, blockHash, signal })
    }
    const next = [...steps]
    for (const [w, { i }] of waiting.entries())
      next[i] = reads[i]!.next(slots[w]!.map((slot) => results[slot]))
    steps = next
  }

  const positions: DefiPosition[] = []
  const skipped: SkippedCandidate[] = []
  for (const [i, step] of steps.entries()) {
    if (!step.done)
      throw new BaseError(`The ${candidates[i]!.type} reader asks for a third round of calls.`)
    const outcome = plausible(step.value)
    if (outcome.ok && isClosed(outcome.position))
      skipped.push({ candidate: candidates[i]!, reason: 'closed' })
    else if (outcome.ok) positions.push(outcome.position)
    else skipped.push({ candidate: candidates[i]!, reason: outcome.reason })
  }
  return { positions, skipped }
}

/**
 * Throws unless the node answers a call to an address without code (`0x` on any node): when
 * that fails too, the node fails calls as such (overloaded, its state missing), and the
 * positions' contracts did not revert.
 */
async function assertNodeCalls({
  rpc,
  blockNumber,
  blockHash,
  signal,
}: {
  rpc: RpcClient
  blockNumber: bigint
  blockHash?: Hex | undefined
  signal?: AbortSignal | undefined
}): Promise<void> {
  const tag = blockHash ? { blockHash } : toHex(blockNumber)
  const call = { method: 'eth_call', params: [{ to: zeroAddress, data: '0x' }, tag] }
  const [answer] = await rpc.batch<Hex>([call], signal ? { signal } : {})
  if (!answer?.ok) {
    throw new RetryableError(`The node failed a plain eth_call at block ${blockNumber}.`, {
      ...(answer ? { details: answer.error.shortMessage } : {}),
    })
  }
}

function startRead(candidate: DefiCandidate): PositionRead {
  switch (candidate.type) {
    case 'uniswap_v2':
      return readUniswapV2Position(candidate)
    case 'uniswap_v3':
      return readUniswapV3Position(candidate)
    case 'uniswap_v4':
      return readUniswapV4Position(candidate)
    case 'erc4626':
      return readErc4626Position(candidate)
    case 'lido':
      return readLidoPosition(candidate)
    case 'aave':
      return readAavePosition(candidate)
    default: {
      const never: never = candidate
      throw new Error(`Unknown candidate type ${(never as { type: string }).type}.`)
    }
  }
}

/**
 * A V3 or V4 position NFT whose liquidity was all withdrawn and collected: the NFT stays
 * with its owner unless burned, but it holds and earns nothing (active LPs keep many).
 */
function isClosed(position: DefiPosition): boolean {
  return (
    (position.type === 'uniswap_v3' || position.type === 'uniswap_v4') &&
    position.liquidity === 0n &&
    position.fees0 === 0n &&
    position.fees1 === 0n
  )
}

/** Drops positions whose amounts no real balance reaches (hostile tokens and vaults). */
function plausible(outcome: PositionOutcome): PositionOutcome {
  if (!outcome.ok) return outcome
  const amounts = amountsOf(outcome.position)
  return amounts.every((a) => a < MAX_AMOUNT) ? outcome : { ok: false, reason: 'out_of_range' }
}

function amountsOf(position: DefiPosition): bigint[] {
  switch (position.type) {
    case 'uniswap_v2':
      return [position.amount0, position.amount1]
    case 'uniswap_v3':
    case 'uniswap_v4':
      return [position.amount0, position.amount1, position.fees0, position.fees1]
    case 'erc4626':
      return [position.previewRedeem, position.convertToAssets]
    case 'lido':
      return [position.balance, position.holdings]
    case 'aave':
      return [position.balance, position.scaledBalance]
    default: {
      const never: never = position
      throw new Error(`Unknown position type ${(never as { type: string }).type}.`)
    }
  }
}
