import { describe, expect, it } from 'vitest'
import { createWindowSizer } from './createWindowSizer.ts'

describe('createWindowSizer', () => {
  it('starts small, then sizes windows to the transactions of the density last seen', () => {
    const sizer = createWindowSizer({ batchSize: 100, batchTransactions: 1000 })
    expect(sizer.known).toBe(false)
    expect(sizer.nextBlocks()).toBe(10)
    sizer.observe(10, 2_000) // 200 per block
    expect(sizer.known).toBe(true)
    expect(sizer.nextBlocks()).toBe(5)
    sizer.observe(5, 15) // 3 per block: capped by batchSize
    expect(sizer.nextBlocks()).toBe(100)
    sizer.observe(100, 0) // empty blocks
    expect(sizer.nextBlocks()).toBe(100)
    sizer.observe(1, 5_000) // one block denser than a batch: still one block
    expect(sizer.nextBlocks()).toBe(1)
    sizer.observe(0, 0) // an empty window tells nothing
    expect(sizer.nextBlocks()).toBe(1)
  })

  it('never starts above batchSize', () => {
    expect(createWindowSizer({ batchSize: 3, batchTransactions: 1000 }).nextBlocks()).toBe(3)
  })
})
