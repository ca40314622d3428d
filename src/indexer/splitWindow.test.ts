import { describe, expect, it } from 'vitest'
import { splitWindow } from './splitWindow.ts'

const blocksOf = (...sizes: number[]) =>
  sizes.map((n, i) => ({
    number: i,
    timestamp: 1_700_000_000 + 12 * i,
    transactions: Array.from({ length: n }, () => 0),
  }))
const shape = (batches: { number: number; transactions: unknown[] }[][]) =>
  batches.map((b) => b.map((block) => block.transactions.length))

describe('splitWindow', () => {
  it('keeps a window within twice the target whole', () => {
    expect(shape(splitWindow(blocksOf(500, 500, 500, 500), 1000))).toEqual([[500, 500, 500, 500]])
    expect(shape(splitWindow(blocksOf(), 1000))).toEqual([[]])
  })

  it('cuts a denser window into batches of at most the target, in order', () => {
    const blocks = blocksOf(0, 0, 400, 400, 400, 400, 400, 0, 300)
    const batches = splitWindow(blocks, 1000)
    expect(shape(batches)).toEqual([
      [0, 0, 400, 400],
      [400, 400],
      [400, 0, 300],
    ])
    expect(batches.flat()).toEqual(blocks)
  })

  it('gives a block denser than the target a batch of its own', () => {
    expect(shape(splitWindow(blocksOf(10, 5000, 10, 10), 1000))).toEqual([[10], [5000], [10, 10]])
  })

  it('hourly: never spans the start of an hour (by block timestamps), dense or not', () => {
    const HOUR = 3600
    const at = (timestamp: number, n = 1) => ({
      timestamp,
      transactions: Array.from({ length: n }, () => 0),
    })
    // Three blocks in hour 10, two in hour 13 (none between), one in hour 14.
    const blocks = [
      at(10 * HOUR),
      at(10 * HOUR + 1800),
      at(11 * HOUR - 1),
      at(13 * HOUR + 5),
      at(13 * HOUR + 6),
      at(14 * HOUR),
    ]
    const times = (batches: { timestamp: number }[][]) =>
      batches.map((b) => b.map((block) => block.timestamp))
    expect(times(splitWindow(blocks, 1000, true))).toEqual([
      [10 * HOUR, 10 * HOUR + 1800, 11 * HOUR - 1],
      [13 * HOUR + 5, 13 * HOUR + 6],
      [14 * HOUR],
    ])
    // Without prices the window stays whole; within one hour, too.
    expect(splitWindow(blocks, 1000)).toHaveLength(1)
    expect(splitWindow(blocks.slice(0, 3), 1000, true)).toHaveLength(1)
    // Dense and across hours: cut at both.
    const dense = [at(0, 500), at(1, 500), at(2, 500), at(HOUR, 500), at(HOUR + 1, 500)]
    expect(times(splitWindow(dense, 1000, true))).toEqual([[0, 1], [2], [HOUR, HOUR + 1]])
  })
})
