/**
 * Cuts a fetched window into batches of about `batchTransactions` transactions, in order,
 * when it holds more than twice that. The window sizer guesses a window's blocks from the
 * density of the last one, so a window after a run of empty blocks may be `batchSize` dense
 * blocks; cut, each batch still derives, reads and commits about `batchTransactions`
 * transactions. A block denser than that is a batch of its own; a window within twice the
 * target stays whole (the sizer's guesses vary a little around it).
 */
export function splitWindow<B extends { transactions: readonly unknown[] }>(
  blocks: readonly B[],
  batchTransactions: number,
): B[][] {
  const total = blocks.reduce((sum, b) => sum + b.transactions.length, 0)
  if (total <= 2 * batchTransactions) return [[...blocks]]
  const batches: B[][] = []
  let batch: B[] = []
  let held = 0
  for (const block of blocks) {
    const size = block.transactions.length
    if (batch.length > 0 && held + size > batchTransactions) {
      batches.push(batch)
      batch = []
      held = 0
    }
    batch.push(block)
    held += size
  }
  if (batch.length > 0) batches.push(batch)
  return batches
}
