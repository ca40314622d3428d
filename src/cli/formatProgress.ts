import type { Progress } from '../indexer/createProgress.ts'

/** One line for a person: `chain 1: block 1200/5000, 310 blocks/s, 3,800 left, ETA 12s`. */
export function formatProgress(p: Progress, name?: string): string {
  const label = name ? `${name} (${p.chainId})` : `chain ${p.chainId}`
  if (p.phase === 'following') return `${label}: following the head at block ${p.indexedBlock}`
  const rate = `${p.blocksPerSecond.toFixed(p.blocksPerSecond < 10 ? 1 : 0)} blocks/s`
  const eta = p.etaSeconds === undefined ? 'ETA unknown' : `ETA ${formatDuration(p.etaSeconds)}`
  return `${label}: block ${p.indexedBlock}/${p.headBlock}, ${rate}, ${p.blocksLeft.toLocaleString('en-US')} left, ${eta}`
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}
