import { describe, expect, it } from 'vitest'
import { splitWindow } from './splitWindow.ts'

const blocksOf = (...sizes: number[]) =>
  sizes.map((n, i) => ({ number: i, transactions: Array.from({ length: n }, () => 0) }))
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
})
