export type Limiter = {
  /**
   * Waits for a free slot and resolves with the function that frees it; rejects with the
   * signal's reason if it aborts first. A `background` holder (read-ahead work nobody waits
   * for yet) waits behind every other waiting holder, and background holders never take the
   * last slot (of two or more): a call someone waits for finds one free, or the first freed.
   */
  acquire(signal?: AbortSignal, background?: boolean): Promise<() => void>
}

/**
 * A counting semaphore: at most `max` holders at a time, served first come first served (the
 * background ones after the others).
 */
export function createLimiter(max: number): Limiter {
  const maxBackground = Math.max(1, max - 1)
  let active = 0
  let activeBackground = 0
  const waiting: Array<() => void> = []
  const waitingBackground: Array<() => void> = []

  /** Hands free slots to waiting holders, the others before the background ones. */
  const grantFree = () => {
    while (active < max) {
      const next =
        waiting.shift() ??
        (activeBackground < maxBackground ? waitingBackground.shift() : undefined)
      if (!next) return
      next()
    }
  }

  return {
    acquire(signal, background = false) {
      if (signal?.aborted) return Promise.reject(signal.reason)
      const queue = background ? waitingBackground : waiting
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const index = queue.indexOf(grant)
          if (index !== -1) queue.splice(index, 1)
          reject(signal?.reason)
        }
        const grant = () => {
          signal?.removeEventListener('abort', onAbort)
          active++
          if (background) activeBackground++
          let held = true
          resolve(() => {
            if (!held) return
            held = false
            active--
            if (background) activeBackground--
            grantFree()
          })
        }
        queue.push(grant)
        signal?.addEventListener('abort', onAbort, { once: true })
        grantFree()
      })
    },
  }
}
