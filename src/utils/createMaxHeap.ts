/** A binary max-heap: `above(a, b)` says whether `a` comes out before `b`. */
export type MaxHeap<T> = {
  push(item: T): void
  pop(): T | undefined
  /** The item `pop` would take, left in place. */
  peek(): T | undefined
  /** Keeps only the items `keep` accepts (linear: stale entries dropped at once). */
  retain(keep: (item: T) => boolean): void
  readonly size: number
}

export function createMaxHeap<T>(above: (a: T, b: T) => boolean): MaxHeap<T> {
  const items: T[] = []
  const higher = (i: number, j: number) => above(items[i]!, items[j]!)
  const swap = (i: number, j: number) => {
    const t = items[i]!
    items[i] = items[j]!
    items[j] = t
  }
  const down = (start: number) => {
    let i = start
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let best = i
      if (l < items.length && higher(l, best)) best = l
      if (r < items.length && higher(r, best)) best = r
      if (best === i) return
      swap(i, best)
      i = best
    }
  }
  return {
    push(item) {
      items.push(item)
      let i = items.length - 1
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!higher(i, parent)) break
        swap(i, parent)
        i = parent
      }
    },
    pop() {
      const top = items[0]
      const last = items.pop()
      if (items.length > 0 && last !== undefined) {
        items[0] = last
        down(0)
      }
      return top
    },
    retain(keep) {
      let n = 0
      for (const item of items) if (keep(item)) items[n++] = item
      items.length = n
      for (let i = (n >> 1) - 1; i >= 0; i--) down(i)
    },
    peek() {
      return items[0]
    },
    get size() {
      return items.length
    },
  }
}
