import { decodeFunctionResult, encodeFunctionData } from 'viem'
import { encodeAddressCall } from '../evm/abi/encodeAddressCall.ts'
import { BALANCE_OF_SELECTOR, erc20Abi } from '../evm/abis.ts'
import { uniswapV2Abi, uniswapV3Abi } from '../evm/decode/poolAbis.ts'
import type { DexFactory, PoolIdentity, PoolType } from '../evm/poolTypes.ts'
import { callContracts } from '../evm/read/callContracts.ts'
import type { ContractCall } from '../evm/read/readAtBlock.ts'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../evm/types.ts'
import type { PoolTable } from '../store/schema.ts'
import { toU256 } from '../store/u256.ts'

/** The node reads of a batch's pool rows, and how to finish them. */
export type PoolUpdatesPlan = {
  /**
   * States of the pools already trusted (from the store, or announced in the batch by a
   * configured factory), at the batch's last block: made with its other reads there.
   */
  calls: ContractCall[]
  /**
   * The pool rows, from the answers to `calls`; candidates no configured factory vouched for
   * yet are checked first (their own calls, at the same block).
   */
  finish(args: {
    rpc: RpcClient
    blockNumber: bigint
    /** The block's hash: reads are pinned to it (EIP-1898), as the batch's other reads are. */
    blockHash?: Hex | undefined
    results: readonly (Hex | undefined)[]
    signal?: AbortSignal | undefined
  }): Promise<PoolTable[]>
}

/**
 * New rows for the pools a batch touched, read at its last block. A pool is trusted when a
 * configured factory announced it (PairCreated/PoolCreated) or, for pools older than the
 * indexed range, when the factory it names returns it from `getPair`/`getPool`. Other
 * emitters of pool events get an untrusted row, so they are checked once, never priced.
 */
export function planPoolUpdates({
  chainId,
  touched,
  created,
  known,
  factories,
}: {
  chainId: number
  /** Addresses that emitted pool events, with the type their events imply. */
  touched: ReadonlyMap<Address, PoolType>
  /** Pools announced by some factory in the batch (not yet checked against config). */
  created: readonly PoolIdentity[]
  /** The store's rows for the touched and created addresses. */
  known: ReadonlyMap<Address, PoolTable>
  factories: readonly DexFactory[]
}): PoolUpdatesPlan {
  const configured = new Set(factories.map((f) => `${f.type}|${f.address}`))
  const vouched = (p: { type: PoolType; factory: string | null }) =>
    p.factory !== null && configured.has(`${p.type}|${p.factory}`)
  /** Trusted pools, and (null) what no configured factory vouches for. */
  const identities = new Map<Address, PoolIdentity | null>()
  for (const [address, row] of known) {
    // A row is trusted only while its factory is configured; a candidate whose claimed
    // factory became configured is checked again below.
    if (row.trusted === 1 && vouched(row)) identities.set(address, identityOf(row))
    else if (row.trusted === 1 || !vouched(row)) identities.set(address, null)
  }
  for (const pool of created) if (vouched(pool)) identities.set(pool.address, pool)
  const unchecked = new Map<Address, PoolType>()
  for (const [address, type] of touched) if (!identities.has(address)) unchecked.set(address, type)
  for (const [address, row] of known) if (!identities.has(address)) unchecked.set(address, row.type)
  const trusted = [...identities.values()].filter((p): p is PoolIdentity => p !== null)

  return {
    calls: stateCalls(trusted),
    async finish({ rpc, blockNumber, blockHash, results, signal }) {
      const sig = signal ? { signal } : {}
      const claims = await verifyPools({
        rpc,
        blockNumber,
        blockHash,
        candidates: [...unchecked],
        configured,
        ...sig,
      })
      const block = Number(blockNumber)
      const rows: PoolTable[] = []
      const verified: PoolIdentity[] = []
      for (const [address, claim] of claims) {
        if (claim.trusted && claim.identity) verified.push(claim.identity)
        else if (!known.has(address)) {
          // Kept with what it claims, so that it is checked again if its factory is configured.
          rows.push({
            chain_id: chainId,
            address,
            type: claim.identity?.type ?? unchecked.get(address) ?? 'uniswap_v2',
            trusted: 0,
            factory: claim.identity?.factory ?? null,
            token0: claim.identity?.token0 ?? null,
            token1: claim.identity?.token1 ?? null,
            fee: claim.identity?.fee ?? null,
            ...NO_STATE,
            block_number: block,
          })
        }
      }
      const verifiedResults = await callContracts({
        rpc,
        blockNumber,
        blockHash,
        calls: stateCalls(verified),
        ...sig,
      })
      const withStates = (
        pools: readonly PoolIdentity[],
        answers: readonly (Hex | undefined)[],
      ) => {
        const states = decodeStates(pools, answers)
        return pools.map((pool, i) => ({ ...rowOf({ chainId, pool, block }), ...states[i]! }))
      }
      rows.push(...withStates(trusted, results), ...withStates(verified, verifiedResults))
      return rows
    },
  }
}

const NO_STATE = {
  reserve0: null,
  reserve1: null,
  sqrt_price_x96: null,
  tick: null,
  liquidity: null,
} as const

function identityOf(row: PoolTable): PoolIdentity | null {
  if (!row.factory || !row.token0 || !row.token1) return null
  return {
    address: row.address as Address,
    type: row.type,
    factory: row.factory as Address,
    token0: row.token0 as Address,
    token1: row.token1 as Address,
    fee: row.fee,
  }
}

function rowOf({
  chainId,
  pool,
  block,
}: {
  chainId: number
  pool: PoolIdentity
  block: number
}): PoolTable {
  return {
    chain_id: chainId,
    address: pool.address,
    type: pool.type,
    trusted: 1,
    factory: pool.factory,
    token0: pool.token0,
    token1: pool.token1,
    fee: pool.fee,
    ...NO_STATE,
    block_number: block,
  }
}

const call = (
  abi: typeof uniswapV2Abi | typeof uniswapV3Abi,
  functionName: string,
  args?: unknown[],
) =>
  // biome-ignore lint/suspicious/noExplicitAny: one helper over two ABIs.
  encodeFunctionData({ abi, functionName, args } as any)

function decode<T>(
  abi: typeof uniswapV2Abi | typeof uniswapV3Abi | typeof erc20Abi,
  functionName: string,
  data: Hex | undefined,
): T | undefined {
  if (data === undefined || data === '0x') return undefined
  try {
    // biome-ignore lint/suspicious/noExplicitAny: one helper over several ABIs.
    return decodeFunctionResult({ abi, functionName, data } as any) as T
  } catch {
    return undefined
  }
}

/** What a candidate says it is (null: it does not answer like a pool), and whether its factory agrees. */
type PoolClaim = { identity: PoolIdentity | null; trusted: boolean }

/** Asks each candidate for its factory and tokens, then asks that factory whether it is its pool. */
async function verifyPools({
  rpc,
  blockNumber,
  blockHash,
  candidates,
  configured,
  signal,
}: {
  rpc: RpcClient
  blockNumber: bigint
  blockHash: Hex | undefined
  candidates: readonly [Address, PoolType][]
  configured: ReadonlySet<string>
  signal?: AbortSignal
}): Promise<Map<Address, PoolClaim>> {
  const sig = signal ? { signal } : {}
  const out = new Map<Address, PoolClaim>()
  if (candidates.length === 0) return out
  const abiOf = (type: PoolType) => (type === 'uniswap_v2' ? uniswapV2Abi : uniswapV3Abi)
  const first = await callContracts({
    rpc,
    blockNumber,
    blockHash,
    calls: candidates.flatMap(([to, type]) => [
      { to, data: call(abiOf(type), 'factory') },
      { to, data: call(abiOf(type), 'token0') },
      { to, data: call(abiOf(type), 'token1') },
      // V2 pairs have no fee tier.
      ...(type === 'uniswap_v3' ? [{ to, data: call(uniswapV3Abi, 'fee') }] : []),
    ]),
    ...sig,
  })
  const claimed: PoolIdentity[] = []
  let k = 0
  for (const [address, type] of candidates) {
    const abi = abiOf(type)
    const factory = decode<Address>(abi, 'factory', first[k++])?.toLowerCase() as Address
    const token0 = decode<Address>(abi, 'token0', first[k++])?.toLowerCase() as Address
    const token1 = decode<Address>(abi, 'token1', first[k++])?.toLowerCase() as Address
    const fee = type === 'uniswap_v3' ? decode<number>(uniswapV3Abi, 'fee', first[k++]) : null
    if (!factory || !token0 || !token1 || fee === undefined) {
      out.set(address, { identity: null, trusted: false })
      continue
    }
    const identity = { address, type, factory, token0, token1, fee }
    if (configured.has(`${type}|${factory}`)) claimed.push(identity)
    else out.set(address, { identity, trusted: false })
  }
  const answers = await callContracts({
    rpc,
    blockNumber,
    blockHash,
    calls: claimed.map((p) => ({
      to: p.factory,
      data:
        p.type === 'uniswap_v2'
          ? call(uniswapV2Abi, 'getPair', [p.token0, p.token1])
          : call(uniswapV3Abi, 'getPool', [p.token0, p.token1, p.fee]),
    })),
    ...sig,
  })
  for (const [i, p] of claimed.entries()) {
    const fn = p.type === 'uniswap_v2' ? 'getPair' : 'getPool'
    const answer = decode<Address>(
      p.type === 'uniswap_v2' ? uniswapV2Abi : uniswapV3Abi,
      fn,
      answers[i],
    )
    out.set(p.address, { identity: p, trusted: answer?.toLowerCase() === p.address })
  }
  return out
}

type PoolState = Pick<PoolTable, 'reserve0' | 'reserve1' | 'sqrt_price_x96' | 'tick' | 'liquidity'>

/** V2: getReserves. V3: slot0, liquidity and the pool's balance of each token. */
function stateCalls(pools: readonly PoolIdentity[]): ContractCall[] {
  return pools.flatMap((p) =>
    p.type === 'uniswap_v2'
      ? [{ to: p.address, data: call(uniswapV2Abi, 'getReserves') }]
      : [
          { to: p.address, data: call(uniswapV3Abi, 'slot0') },
          { to: p.address, data: call(uniswapV3Abi, 'liquidity') },
          { to: p.token0, data: encodeAddressCall(BALANCE_OF_SELECTOR, p.address) },
          { to: p.token1, data: encodeAddressCall(BALANCE_OF_SELECTOR, p.address) },
        ],
  )
}

/** The states from the answers to `stateCalls(pools)`. */
function decodeStates(
  pools: readonly PoolIdentity[],
  results: readonly (Hex | undefined)[],
): PoolState[] {
  let k = 0
  const u256 = (v: bigint | undefined) => (v === undefined ? null : toU256(v))
  return pools.map((p) => {
    if (p.type === 'uniswap_v2') {
      const r = decode<readonly [bigint, bigint, number]>(uniswapV2Abi, 'getReserves', results[k++])
      return {
        reserve0: u256(r?.[0]),
        reserve1: u256(r?.[1]),
        sqrt_price_x96: null,
        tick: null,
        liquidity: null,
      }
    }
    const slot0 = decode<readonly [bigint, number, ...unknown[]]>(
      uniswapV3Abi,
      'slot0',
      results[k++],
    )
    const liquidity = decode<bigint>(uniswapV3Abi, 'liquidity', results[k++])
    const b0 = decode<bigint>(erc20Abi, 'balanceOf', results[k++])
    const b1 = decode<bigint>(erc20Abi, 'balanceOf', results[k++])
    return {
      reserve0: u256(b0),
      reserve1: u256(b1),
      sqrt_price_x96: u256(slot0?.[0]),
      tick: slot0?.[1] ?? null,
      liquidity: u256(liquidity),
    }
  })
}
