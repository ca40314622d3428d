import type { NftHoldingTable } from '../../store/schema.ts'
import type { StateChange } from '../../store/stateTables.ts'
import { fromU256, toU256 } from '../../store/u256.ts'
import type { BatchReads, LoadedState } from '../read/readBatchState.ts'
import type { Address } from '../types.ts'
import type { Touched } from './touched.ts'
import { ZERO_ADDRESS } from './zeroAddress.ts'

/**
 * Pure: the state rows a batch leaves behind, from what it touched, what the store had and
 * what the node says at the batch's last block. At most one change per key.
 */
export function deriveState({
  chainId,
  fromBlock,
  toBlock,
  touched,
  loaded,
  reads,
}: {
  chainId: number
  fromBlock: number
  toBlock: number
  touched: Touched
  loaded: LoadedState
  reads: BatchReads
}): StateChange[] {
  const changes: StateChange[] = []

  for (const [address, balance] of reads.native) {
    changes.push({
      table: 'native_balances',
      key: { address, chain_id: chainId },
      row: { address, chain_id: chainId, balance: toU256(balance), block_number: toBlock },
    })
  }

  for (const [key, balance] of reads.erc20Balances) {
    const [token, holder] = key.split('|') as [Address, Address]
    const prev = loaded.balances.get(key)
    const flow = touched.erc20.get(token)?.get(holder)
    const firstIn = prev?.first_acquired_time != null ? undefined : flow?.firstIn
    changes.push({
      table: 'token_balances',
      key: { address: holder, chain_id: chainId, token },
      row: {
        address: holder,
        chain_id: chainId,
        token,
        balance: toU256(balance),
        first_acquired_time: firstIn ? firstIn.time : (prev?.first_acquired_time ?? null),
        first_acquired_block: firstIn ? firstIn.block : (prev?.first_acquired_block ?? null),
        has_initiated_transfer: prev?.has_initiated_transfer === 1 || flow?.sent ? 1 : 0,
        block_number: toBlock,
      },
    })
  }

  // Tokens: new ones with their metadata; known ones when supply or the rebasing flag moved.
  const tokenAddresses = new Set<Address>([...reads.newTokens.keys(), ...reads.supply.keys()])
  for (const address of tokenAddresses) {
    const known = loaded.tokens.get(address)
    const info = reads.newTokens.get(address)
    const supply = reads.supply.get(address)
    const totalSupply = supply === undefined ? (known?.total_supply ?? null) : toU256(supply)
    const rebasing = reads.rebasing.has(address) ? 1 : 0
    if (known && known.total_supply === totalSupply && known.rebasing === rebasing) continue
    const standard = known?.standard ?? info?.standard
    if (!standard) continue
    changes.push({
      table: 'tokens',
      key: { chain_id: chainId, address },
      row: {
        chain_id: chainId,
        address,
        standard,
        name: known ? known.name : (info?.name ?? null),
        symbol: known ? known.symbol : (info?.symbol ?? null),
        decimals: known ? known.decimals : (info?.decimals ?? null),
        total_supply: totalSupply,
        rebasing,
        first_block: known?.first_block ?? fromBlock,
        block_number: toBlock,
      },
    })
  }

  // NFTs: replay the batch's moves over the stored holdings.
  const nfts = new Map<string, NftHoldingTable | null>()
  const holding = (key: string) => (nfts.has(key) ? nfts.get(key) : loaded.nfts.get(key)) ?? null
  for (const move of touched.nftMoves) {
    const id = toU256(move.tokenId)
    if (move.from !== ZERO_ADDRESS) {
      const key = `${move.from}|${move.contract}|${id}`
      const prev = holding(key)
      const left =
        move.standard === 'erc721' ? 0n : (prev ? fromU256(prev.balance) : 0n) - move.value
      nfts.set(key, left > 0n && prev ? { ...prev, balance: toU256(left) } : null)
    }
    if (move.to !== ZERO_ADDRESS) {
      const key = `${move.to}|${move.contract}|${id}`
      const prev = holding(key)
      const held =
        move.standard === 'erc721' ? 1n : (prev ? fromU256(prev.balance) : 0n) + move.value
      nfts.set(key, {
        address: move.to,
        chain_id: chainId,
        contract: move.contract,
        token_id: id,
        standard: move.standard,
        balance: toU256(held),
        last_acquired_time: move.time,
        last_acquired_block: move.block,
      })
    }
  }
  for (const [key, row] of nfts) {
    const [address, contract, token_id] = key.split('|') as [string, string, string]
    if (row === null && !loaded.nfts.has(key)) continue
    changes.push({
      table: 'nft_holdings',
      key: { address, chain_id: chainId, contract, token_id },
      row,
    })
  }

  return changes
}
