/** Blocks in a window before any block of the chain was seen (the density is unknown). */
const FIRST_WINDOW_BLOCKS = 10

export type WindowSizer = {
  /** Blocks in the next window: about `batchTransactions` at the density last seen, 1..`batchSize`. */
  nextBlocks(): number
  /** Whether a density was seen (until then the pipeline keeps one window in flight). */
  readonly known: boolean
  /** A fetched window: its blocks and their transactions. */
  observe(blocks: number, transactions: number): void
}

/**
 * Sizes the pipeline's windows (each window is one committed batch) by transactions rather than
 * blocks alone: what a batch holds in memory (fetched receipts and traces, derived rows, state
 * reads) follows its transactions, and block density varies by chain and by era (Ethereum's
 * first years are nearly empty, today's blocks hold ~200 transactions). The density of the
 * last fetched window sets the next one; windows already in flight keep their size.
 */
export function createWindowSizer({
  batchSize,
  batchTransactions,
}: {
  batchSize: number
  batchTransactions: number
}): WindowSizer {
  let perBlock: number | undefined
  return {
    nextBlocks() {
      if (perBlock === undefined) return Math.min(batchSize, FIRST_WINDOW_BLOCKS)
      if (perBlock === 0) return batchSize
      return Math.max(1, Math.min(batchSize, Math.floor(batchTransactions / perBlock)))
    },
    get known() {
      return perBlock !== undefined
    },
    observe(blocks, transactions) {
      if (blocks > 0) perBlock = transactions / blocks
    },
  }
}
