import type { BatchWrite } from '../../src/store/applyBatch.ts'

/** A batch of blocks `fromBlock..toBlock` that writes nothing but what `overrides` adds. */
export function emptyBatch({
  chainId,
  fromBlock,
  toBlock = fromBlock,
  ...overrides
}: { chainId: number; fromBlock: number; toBlock?: number } & Partial<BatchWrite>): BatchWrite {
  return {
    chainId,
    fromBlock,
    toBlock,
    toHash: `0x${toBlock.toString(16).padStart(64, '0')}`,
    keepUndo: false,
    blocks: [],
    transactions: [],
    logs: [],
    addressTransactions: [],
    transfers: [],
    activity: [],
    state: [],
    ...overrides,
  }
}
