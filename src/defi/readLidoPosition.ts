import { encodeFunctionData } from 'viem'
import { decodeResult } from './decodeResult.ts'
import { lidoAbi } from './defiAbis.ts'
import type { DefiCandidate, PositionRead } from './types.ts'

/**
 * Values Lido stETH or wstETH by the contracts' own rates. stETH, one round: `sharesOf` (the
 * scaled balance) and `balanceOf` (the ether it is worth); wstETH: `balanceOf`, then in a
 * second round `getStETHByWstETH` of it (the stETH it unwraps to).
 */
export function* readLidoPosition(
  candidate: Extract<DefiCandidate, { type: 'lido' }>,
): PositionRead {
  const { owner, token, kind } = candidate
  const balanceOf = { to: token, data: encode('balanceOf', owner) }
  if (kind === 'steth') {
    const [rBalance, rShares] = yield [balanceOf, { to: token, data: encode('sharesOf', owner) }]
    const holdings = decodeResult({ abi: lidoAbi, functionName: 'balanceOf', data: rBalance })
    const balance = decodeResult({ abi: lidoAbi, functionName: 'sharesOf', data: rShares })
    if (holdings === undefined || balance === undefined) return { ok: false, reason: 'read_failed' }
    return { ok: true, position: { type: 'lido', owner, token, kind, balance, holdings } }
  }
  const [rBalance] = yield [balanceOf]
  const balance = decodeResult({ abi: lidoAbi, functionName: 'balanceOf', data: rBalance })
  if (balance === undefined) return { ok: false, reason: 'read_failed' }
  const [rHoldings] = yield [
    {
      to: token,
      data: encodeFunctionData({ abi: lidoAbi, functionName: 'getStETHByWstETH', args: [balance] }),
    },
  ]
  const holdings = decodeResult({ abi: lidoAbi, functionName: 'getStETHByWstETH', data: rHoldings })
  if (holdings === undefined) return { ok: false, reason: 'read_failed' }
  return { ok: true, position: { type: 'lido', owner, token, kind, balance, holdings } }
}

function encode(functionName: 'balanceOf' | 'sharesOf', owner: `0x${string}`) {
  return encodeFunctionData({ abi: lidoAbi, functionName, args: [owner] })
}
