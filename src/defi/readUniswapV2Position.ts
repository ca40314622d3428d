import { encodeFunctionData } from 'viem'
import { erc20Abi } from '../evm/abis.ts'
import type { Address } from '../evm/types.ts'
import { decodeResult } from './decodeResult.ts'
import { uniswapV2FactoryAbi, uniswapV2PairAbi } from './defiAbis.ts'
import { getV2BurnAmounts } from './getV2BurnAmounts.ts'
import type { DefiCandidate, PositionRead } from './types.ts'

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'
const pairCall = (functionName: 'factory' | 'token0' | 'token1' | 'totalSupply' | 'kLast') =>
  encodeFunctionData({ abi: uniswapV2PairAbi, functionName })
const FACTORY = pairCall('factory')
const TOKEN0 = pairCall('token0')
const TOKEN1 = pairCall('token1')
const TOTAL_SUPPLY = pairCall('totalSupply')
const K_LAST = pairCall('kLast')
const GET_RESERVES = encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'getReserves' })
const FEE_TO = encodeFunctionData({ abi: uniswapV2FactoryAbi, functionName: 'feeTo' })
const balanceOf = (owner: Address) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

/**
 * Values a Uniswap V2 LP balance as what burning it pays now. Round 1: the pair's identity,
 * the owner's LP balance, supply, kLast, reserves and the factory's feeTo; round 2: the pair's
 * balance of each token.
 */
export function* readUniswapV2Position(
  candidate: Extract<DefiCandidate, { type: 'uniswap_v2' }>,
): PositionRead {
  const { owner, pair, factory } = candidate
  const r1 = yield [
    { to: pair, data: FACTORY },
    { to: pair, data: TOKEN0 },
    { to: pair, data: TOKEN1 },
    { to: pair, data: balanceOf(owner) },
    { to: pair, data: TOTAL_SUPPLY },
    { to: pair, data: K_LAST },
    { to: pair, data: GET_RESERVES },
    { to: factory, data: FEE_TO },
  ]
  const named = decodeResult({ abi: uniswapV2PairAbi, functionName: 'factory', data: r1[0] })
  if (named === undefined) return { ok: false, reason: 'read_failed' }
  // Identity first: a pair of another factory is that, whatever else fails to read.
  if (named.toLowerCase() !== factory.toLowerCase()) return { ok: false, reason: 'unknown_factory' }
  const token0 = decodeResult({ abi: uniswapV2PairAbi, functionName: 'token0', data: r1[1] })
  const token1 = decodeResult({ abi: uniswapV2PairAbi, functionName: 'token1', data: r1[2] })
  const lpBalance = decodeResult({ abi: uniswapV2PairAbi, functionName: 'balanceOf', data: r1[3] })
  const totalSupply = decodeResult({
    abi: uniswapV2PairAbi,
    functionName: 'totalSupply',
    data: r1[4],
  })
  const kLast = decodeResult({ abi: uniswapV2PairAbi, functionName: 'kLast', data: r1[5] })
  const reserves = decodeResult({ abi: uniswapV2PairAbi, functionName: 'getReserves', data: r1[6] })
  const feeTo = decodeResult({ abi: uniswapV2FactoryAbi, functionName: 'feeTo', data: r1[7] })
  if (
    token0 === undefined ||
    token1 === undefined ||
    lpBalance === undefined ||
    totalSupply === undefined ||
    kLast === undefined ||
    reserves === undefined ||
    feeTo === undefined
  )
    return { ok: false, reason: 'read_failed' }

  const t0 = token0.toLowerCase() as Address
  const t1 = token1.toLowerCase() as Address
  const r2 = yield [
    { to: t0, data: balanceOf(pair) },
    { to: t1, data: balanceOf(pair) },
  ]
  const balance0 = decodeResult({ abi: erc20Abi, functionName: 'balanceOf', data: r2[0] })
  const balance1 = decodeResult({ abi: erc20Abi, functionName: 'balanceOf', data: r2[1] })
  if (balance0 === undefined || balance1 === undefined) return { ok: false, reason: 'read_failed' }

  const { amount0, amount1 } = getV2BurnAmounts({
    liquidity: lpBalance,
    balance0,
    balance1,
    reserve0: reserves[0],
    reserve1: reserves[1],
    totalSupply,
    kLast,
    feeOn: feeTo !== ZERO_ADDRESS,
  })
  return {
    ok: true,
    position: {
      type: 'uniswap_v2',
      owner,
      pair,
      factory,
      token0: t0,
      token1: t1,
      lpBalance,
      totalSupply,
      amount0,
      amount1,
    },
  }
}
