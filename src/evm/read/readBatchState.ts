import { encodeFunctionData } from 'viem'
import type { StateReader } from '../../store/createStore.ts'
import type {
  NftHoldingTable,
  TokenBalanceTable,
  TokenStandard,
  TokenTable,
} from '../../store/schema.ts'
import { fromU256, toU256 } from '../../store/u256.ts'
import { erc20Abi } from '../abis.ts'
import { decodeDecimals, decodeMetadataString, decodeUint } from '../decode/decodeMetadataString.ts'
import type { Touched } from '../derive/touched.ts'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import type { Address, Hex } from '../types.ts'
import { balanceOfCall, totalSupplyCall } from './batchStateCalls.ts'
import { callContracts } from './callContracts.ts'
import { type ContractCall, type ReadyReads, readAtBlock } from './readAtBlock.ts'

/** Rows the store has for what a batch touched (state before the batch). */
export type LoadedState = {
  tokens: Map<Address, TokenTable>
  /** Keyed `${token}|${holder}`. */
  balances: Map<string, TokenBalanceTable>
  /** Keyed `${address}|${contract}|${tokenId hex}`. */
  nfts: Map<string, NftHoldingTable>
}

/** What the node says at the batch's last block. */
export type BatchReads = {
  native: Map<Address, bigint>
  /** Keyed `${token}|${holder}`. */
  erc20Balances: Map<string, bigint>
  supply: Map<Address, bigint | undefined>
  newTokens: Map<Address, NewToken>
  /** Tokens whose balances are read for every holder (rebasing, fee-on-transfer, …). */
  rebasing: Set<Address>
}

export type NewToken = {
  standard: TokenStandard
  name: string | undefined
  symbol: string | undefined
  decimals: number | undefined
  /** An ERC20 token's answers to `newTokenCalls`, in order (`undefined`: reverted); else empty. */
  answers: (Hex | undefined)[]
}

const pairKey = (token: string, holder: string) => `${token}|${holder}`
const NAME = encodeFunctionData({ abi: erc20Abi, functionName: 'name' })
const SYMBOL = encodeFunctionData({ abi: erc20Abi, functionName: 'symbol' })
const DECIMALS = encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' })

/**
 * Loads the store's rows for what the batch touched and reads from the node, at the batch's
 * last block, every balance and supply that may have changed. Balances are read, not summed
 * from events, so they equal the node by construction (fee-on-transfer tokens and gas
 * included); events only say which ones to read. A token whose supply or balances moved
 * differently from its events is marked rebasing: from then on every holder is re-read
 * whenever the token is touched. A new ERC20 token is also asked `newTokenCalls` with its
 * metadata (the indexer's DeFi token probe, `DEFI_PROBE_CALLS`). `ready`: the reads
 * `prefetchBatchReads` made of this batch, answered from there.
 */
export async function readBatchState({
  rpc,
  state,
  chainId,
  fromBlock,
  toBlock,
  toHash,
  parentHash,
  touched,
  alongside = [],
  newTokenCalls = [],
  ready,
  signal,
}: {
  rpc: RpcClient
  /** The store's rows as they stand before this batch (pending batches included). */
  state: StateReader
  chainId: number
  fromBlock: bigint
  toBlock: bigint
  /**
   * The batch's last block and the parent of its first: state is read by these hashes where
   * given (EIP-1898), never from a sibling block the node switched to while we read.
   */
  toHash?: Hex | undefined
  parentHash?: Hex | undefined
  touched: Touched
  /**
   * Other calls at the last block, made in the same `eth_call`s as the batch's own reads
   * (allowances, pool states): their answers come back as `alongside`, in order.
   */
  alongside?: readonly ContractCall[]
  /** Calls asked of each new ERC20 token beside its metadata, in the same `eth_call`s. */
  newTokenCalls?: readonly Hex[]
  ready?: Promise<ReadyReads> | undefined
  signal?: AbortSignal
}): Promise<{
  loaded: LoadedState
  reads: BatchReads
  alongside: (Hex | undefined)[]
}> {
  const sig = signal ? { signal } : {}
  const candidateTokens = new Set<Address>([
    ...touched.standards.keys(),
    ...touched.contracts,
    ...touched.erc20.keys(),
  ])
  const tokenRows = await state.readState({
    table: 'tokens',
    chainId,
    keys: [...candidateTokens].map((address) => ({ address })),
  })
  const tokens = new Map(tokenRows.map((t) => [t.address as Address, t]))

  const rebasing = new Set<Address>()
  for (const t of tokenRows) if (t.rebasing === 1) rebasing.add(t.address as Address)
  const newTokens = [...touched.standards].filter(([address]) => !tokens.has(address))
  const erc20Tokens = new Set<Address>(
    [...touched.erc20.keys(), ...rebasing].filter(
      (t) => (tokens.get(t)?.standard ?? touched.standards.get(t)) === 'erc20',
    ),
  )

  // Holders to read: every touched pair, and every known holder of a touched rebasing token.
  const pairs = new Map<string, { token: Address; holder: Address }>()
  const addPair = (token: Address, holder: Address) =>
    pairs.set(pairKey(token, holder), { token, holder })
  for (const [token, holders] of touched.erc20)
    for (const holder of holders.keys()) addPair(token, holder)
  for (const token of rebasing) {
    for (const holder of await state.tokenHolders({ chainId, token }))
      addPair(token, holder as Address)
  }

  // Exactly the rows the batch may change: (holder, token) pairs, the NFTs moved, the
  // allowances of owners whose tokens were spent (a router touching thousands of tokens
  // reads its touched pairs, not every token it ever held).
  const balanceRows = await state.readState({
    table: 'token_balances',
    chainId,
    keys: [...pairs.values()].map((p) => ({ address: p.holder, token: p.token })),
  })
  const balances = new Map(balanceRows.map((r) => [pairKey(r.token, r.address), r]))
  const nftKeys = touched.nftMoves.flatMap((move) => {
    const key = { contract: move.contract, token_id: toU256(move.tokenId) }
    return [
      { address: move.from, ...key },
      { address: move.to, ...key },
    ]
  })
  const nftRows = await state.readState({ table: 'nft_holdings', chainId, keys: nftKeys })
  const nfts = new Map(nftRows.map((r) => [`${r.address}|${r.contract}|${r.token_id}`, r]))
  const pairList = [...pairs.values()]
  const newErc20 = newTokens.filter(([, s]) => s === 'erc20').map(([a]) => a)
  // Supplies of the tokens transfers touched, and of new tokens seen otherwise (an Approval,
  // a failed transfer): token-info's total_supply is the node's from the first sighting.
  const supplyList = [...new Set([...erc20Tokens, ...newErc20])]
  const calls: ContractCall[] = [
    ...pairList.map((p) => balanceOfCall(p.token, p.holder)),
    ...supplyList.map(totalSupplyCall),
    ...newTokens.flatMap(([t, standard]) => [
      { to: t, data: NAME },
      { to: t, data: SYMBOL },
      { to: t, data: DECIMALS },
      ...(standard === 'erc20' ? newTokenCalls.map((data) => ({ to: t, data })) : []),
    ]),
  ]
  // Balances, supplies, metadata, native balances and `alongside` in one read of the last
  // block (in as few `eth_call`s as they fit: the node pays for each).
  const [{ results, native }, supplyBefore] = await Promise.all([
    readAtBlock({
      rpc,
      blockNumber: toBlock,
      blockHash: toHash,
      calls: [...calls, ...alongside],
      native: [...touched.native],
      ready,
      signal,
    }),
    // Supply before the batch of tokens first seen now: the baseline for the rebasing check.
    fromBlock > 0n
      ? callContracts({
          rpc,
          blockNumber: fromBlock - 1n,
          blockHash: parentHash,
          calls: newErc20.map(totalSupplyCall),
          ...sig,
        })
      : Promise.resolve(newErc20.map(() => '0x' as const)),
  ])

  let k = 0
  const erc20Balances = new Map<string, bigint>()
  for (const p of pairList) erc20Balances.set(pairKey(p.token, p.holder), uintOrZero(results[k++]))
  const supply = new Map<Address, bigint | undefined>()
  for (const t of supplyList) supply.set(t, decodeUint(results[k++] ?? '0x'))
  const newTokenInfo = new Map<Address, NewToken>()
  for (const [t, standard] of newTokens) {
    const name = results[k++]
    const symbol = results[k++]
    const decimals = results[k++]
    newTokenInfo.set(t, {
      standard,
      name: name ? decodeMetadataString(name) : undefined,
      symbol: symbol ? decodeMetadataString(symbol) : undefined,
      decimals: standard === 'erc20' && decimals ? decodeDecimals(decimals) : undefined,
      answers: standard === 'erc20' ? newTokenCalls.map(() => results[k++]) : [],
    })
  }

  // Detect tokens whose balances do not follow their events.
  const before = new Map(newErc20.map((t, i) => [t, decodeUint(supplyBefore[i] ?? '0x') ?? 0n]))
  const flagged: Address[] = []
  for (const token of erc20Tokens) {
    if (rebasing.has(token)) continue
    const flow = touched.supplyFlow.get(token) ?? { minted: 0n, burned: 0n }
    const known = tokens.get(token)?.total_supply
    const prevSupply = known ? fromU256(known) : before.get(token)
    const nowSupply = supply.get(token)
    let odd =
      prevSupply !== undefined &&
      nowSupply !== undefined &&
      nowSupply - prevSupply !== flow.minted - flow.burned
    // A token first seen now with no supply before the batch was born in the indexed range:
    // every holder started at zero. Otherwise only holders Scry already tracks are compared
    // (with startBlock > 0, one without a row may have held the token all along).
    const bornHere = before.get(token) === 0n
    for (const [holder, f] of touched.erc20.get(token) ?? []) {
      if (odd) break
      const prev = balances.get(pairKey(token, holder))
      if (!prev && !bornHere) continue
      const expected = (prev ? fromU256(prev.balance) : 0n) + f.inflow - f.outflow
      odd = expected !== erc20Balances.get(pairKey(token, holder))
    }
    if (odd) flagged.push(token)
  }
  if (flagged.length > 0) {
    const extra: { token: Address; holder: Address }[] = []
    for (const token of flagged) {
      rebasing.add(token)
      for (const holder of await state.tokenHolders({ chainId, token })) {
        if (!erc20Balances.has(pairKey(token, holder)))
          extra.push({ token, holder: holder as Address })
      }
    }
    const extraResults = await callContracts({
      rpc,
      blockNumber: toBlock,
      blockHash: toHash,
      calls: extra.map((p) => balanceOfCall(p.token, p.holder)),
      ...sig,
    })
    for (const [i, p] of extra.entries()) {
      erc20Balances.set(pairKey(p.token, p.holder), uintOrZero(extraResults[i]))
    }
    const extraRows = await state.readState({
      table: 'token_balances',
      chainId,
      keys: extra.map((p) => ({ address: p.holder, token: p.token })),
    })
    for (const r of extraRows) balances.set(pairKey(r.token, r.address), r)
  }

  return {
    loaded: { tokens, balances, nfts },
    reads: { native, erc20Balances, supply, newTokens: newTokenInfo, rebasing },
    alongside: results.slice(calls.length),
  }
}

function uintOrZero(result: `0x${string}` | undefined): bigint {
  return (result ? decodeUint(result) : undefined) ?? 0n
}
