export type Prng = {
  /** Uniform in [0, 1). */
  next(): number
  /** Integer in [0, n). */
  int(n: number): number
  /** Integer in [min, max]. */
  between(min: number, max: number): number
  chance(p: number): boolean
  pick<T>(items: readonly T[]): T
  /** `count` distinct items (all of them if there are fewer). */
  sample<T>(items: readonly T[], count: number): T[]
}

/**
 * A tiny seeded PRNG (mulberry32): the demo world must come out the same for the same seed,
 * which Math.random cannot give.
 */
export function createPrng(seed: number): Prng {
  let state = seed >>> 0 || 0x9e3779b9
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  return {
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list')
      return items[int(items.length)]!
    },
    sample: (items, count) => {
      const copy = [...items]
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(i + 1)
        ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
      }
      return copy.slice(0, count)
    },
  }
}
