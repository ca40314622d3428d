import { describe, expect, test } from 'vitest'
import { createLimiter } from './createLimiter.ts'

/** Acquires and records the order in which holders got their slot; `release(name)` frees one. */
function track(max: number) {
  const limiter = createLimiter(max)
  const granted: string[] = []
  const releases = new Map<string, () => void>()
  const acquire = (name: string, background = false, signal?: AbortSignal) =>
    limiter.acquire(signal, background).then((release) => {
      granted.push(name)
      releases.set(name, release)
    })
  const release = (name: string) => releases.get(name)?.()
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
  return { granted, acquire, release, settle }
}

describe('createLimiter', () => {
  test('default: at most max holders, first come first served', async () => {
    const { granted, acquire, release, settle } = track(2)
    for (const name of ['a', 'b', 'c', 'd']) void acquire(name)
    await settle()
    expect(granted).toEqual(['a', 'b'])
    release('a')
    await settle()
    expect(granted).toEqual(['a', 'b', 'c'])
    // Releasing twice frees one slot.
    release('a')
    await settle()
    expect(granted).toEqual(['a', 'b', 'c'])
    release('b')
    await settle()
    expect(granted).toEqual(['a', 'b', 'c', 'd'])
  })

  test('behavior: a waiting call goes before every waiting background call', async () => {
    const { granted, acquire, release, settle } = track(3)
    for (const name of ['a', 'b', 'c']) void acquire(name)
    void acquire('later 1', true)
    void acquire('later 2', true)
    void acquire('d')
    await settle()
    expect(granted).toEqual(['a', 'b', 'c'])
    release('a')
    await settle()
    expect(granted).toEqual(['a', 'b', 'c', 'd'])
    release('b')
    release('c')
    await settle()
    expect(granted).toEqual(['a', 'b', 'c', 'd', 'later 1', 'later 2'])
  })

  test('behavior: background calls leave the last slot to the others', async () => {
    const { granted, acquire, release, settle } = track(3)
    for (const name of ['later 1', 'later 2', 'later 3']) void acquire(name, true)
    await settle()
    expect(granted).toEqual(['later 1', 'later 2'])
    void acquire('now')
    await settle()
    expect(granted).toEqual(['later 1', 'later 2', 'now'])
    // The slot a call frees stays free for the next call, not for a background one.
    release('now')
    await settle()
    expect(granted).toEqual(['later 1', 'later 2', 'now'])
    release('later 1')
    await settle()
    expect(granted).toEqual(['later 1', 'later 2', 'now', 'later 3'])
  })

  test('edge: a single slot is shared, background calls included', async () => {
    const { granted, acquire, release, settle } = track(1)
    void acquire('later', true)
    void acquire('now')
    await settle()
    expect(granted).toEqual(['later'])
    release('later')
    await settle()
    expect(granted).toEqual(['later', 'now'])
  })

  test('behavior: an aborted wait leaves its queue and rejects with the reason', async () => {
    const { granted, acquire, release, settle } = track(1)
    void acquire('a')
    const controller = new AbortController()
    const aborted = acquire('later', true, controller.signal)
    const alsoAborted = acquire('b', false, controller.signal)
    void acquire('c')
    controller.abort(new Error('stop'))
    await expect(aborted).rejects.toThrow('stop')
    await expect(alsoAborted).rejects.toThrow('stop')
    release('a')
    await settle()
    expect(granted).toEqual(['a', 'c'])
  })
})
