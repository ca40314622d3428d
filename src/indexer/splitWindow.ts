/**
 * Cuts a fetched window into batches of about `batchTransactions` transactions, in order,
 * when it holds more than twice that. The window sizer guesses a window's blocks from the
 * density of the last one, so a window after a run of empty blocks may be `batchSize` dense
 * blocks; cut, each batch still derives, reads and commits about `batchTransactions`
 * transactions. A block denser than that is a batch of its own; a window within twice the
 * target stays whole (the sizer's guesses vary a little around it).
 *
 * `hourly` (a chain with prices): a batch also never spans the start of an hour (UTC, by block
 * timestamps). Prices are read at a batch's last block and stamped with its hour, so a batch
 * across hours would leave the earlier hours without their last price (a backfill of a quiet
 * stretch: none at all); cut there, each hour's point is its last block's price. It adds at
 * most one batch an hour.
 */
export function splitWindow<B extends { transactions: readonly unknown[]; timestamp: number }>(
  blocks: readonly B[],
  batchTransactions: number,
  hourly = false,
): B[][] {
  const total = blocks.reduce((sum, b) => sum + b.transactions.length, 0)
  const hourOf = (block: B) => Math.floor(block.timestamp / 3600)
  const acrossHours =
    hourly && blocks.length > 1 && hourOf(blocks[0]!) !== hourOf(blocks[blocks.length - 1]!)
  if (total <= 2 * batchTransactions && !acrossHours) return [[...blocks]]
  const dense = total > 2 * batchTransactions
  const batches: B[][] = []
  let batch: B[] = []
  let held = 0
  for (const block of blocks) {
    const size = block.transactions.length
    const last = batch[batch.length - 1]
    if (
      last !== undefined &&
      ((dense && held + size > batchTransactions) || (hourly && hourOf(last) !== hourOf(block)))
    ) {
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
