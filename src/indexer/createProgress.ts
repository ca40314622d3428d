/** A chain's indexing progress, reported while backfilling and following the head. */
export type Progress = {
  chainId: number
  phase: 'backfill' | 'following'
  indexedBlock: number
  headBlock: number
  blocksLeft: number
  /** Over the last reporting window. */
  blocksPerSecond: number
  transfersPerSecond: number
  /** Seconds until caught up at the current rate; undefined when not moving. */
  etaSeconds: number | undefined
}

/**
 * Turns "a batch of N blocks landed" into a rate and an ETA, smoothed over a sliding window
 * so that one slow batch does not make the ETA jump.
 */
export function createProgress({
  chainId,
  windowMs = 10_000,
}: {
  chainId: number
  windowMs?: number
}) {
  const samples: { at: number; blocks: number; transfers: number }[] = []
  return {
    record({
      blocks,
      transfers,
      indexedBlock,
      headBlock,
      now = Date.now(),
    }: {
      blocks: number
      transfers: number
      indexedBlock: number
      headBlock: number
      now?: number
    }): Progress {
      samples.push({ at: now, blocks, transfers })
      while (samples.length > 2 && (samples[0]?.at ?? now) < now - windowMs) samples.shift()
      const span = Math.max(1, now - (samples[0]?.at ?? now)) / 1000
      // The first sample opens the window; its own work happened before it.
      const counted = samples.length > 1 ? samples.slice(1) : samples
      const sum = (pick: (s: (typeof samples)[number]) => number) =>
        counted.reduce((acc, s) => acc + pick(s), 0)
      const blocksPerSecond = samples.length > 1 ? sum((s) => s.blocks) / span : 0
      const transfersPerSecond = samples.length > 1 ? sum((s) => s.transfers) / span : 0
      const blocksLeft = Math.max(0, headBlock - indexedBlock)
      return {
        chainId,
        phase: blocksLeft > 1 ? 'backfill' : 'following',
        indexedBlock,
        headBlock,
        blocksLeft,
        blocksPerSecond,
        transfersPerSecond,
        etaSeconds: blocksPerSecond > 0 ? blocksLeft / blocksPerSecond : undefined,
      }
    },
  }
}
