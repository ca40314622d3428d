export type Limiter = {
  /** Waits for a free slot; rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<void>
  release(): void
}

/** A counting semaphore: at most `max` holders at a time, served first come first served. */
export function createLimiter(max: number): Limiter {
  let active = 0
  const waiting: Array<() => void> = []

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason)
      if (active < max) {
        active++
        return Promise.resolve()
      }
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const index = waiting.indexOf(grant)
          if (index !== -1) waiting.splice(index, 1)
          reject(signal?.reason)
        }
        // release() hands the slot over directly, so `active` is not decremented in between
        const grant = () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        }
        waiting.push(grant)
        signal?.addEventListener('abort', onAbort, { once: true })
      })
    },
    release() {
      const next = waiting.shift()
      if (next) next()
      else active--
    },
  }
}
