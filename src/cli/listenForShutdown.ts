const SIGNALS = ['SIGINT', 'SIGTERM'] as const
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const

export type Shutdown = {
  /** Aborts on the first SIGINT or SIGTERM: finish the current batch, close, return. */
  signal: AbortSignal
  /** Stops listening (the command is done). */
  dispose: () => void
}

/**
 * First SIGINT/SIGTERM aborts `signal` so the command can stop cleanly; a second one exits at
 * once, for when a clean stop hangs.
 */
export function listenForShutdown({
  log,
  exit = (code) => process.exit(code),
}: {
  log: (text: string) => void
  exit?: (code: number) => void
}): Shutdown {
  const controller = new AbortController()
  const onSignal = (name: (typeof SIGNALS)[number]) => {
    if (controller.signal.aborted) {
      log(`received ${name} again; exiting now\n`)
      exit(EXIT_CODES[name])
      return
    }
    log(`received ${name}; shutting down (send it again to exit at once)\n`)
    controller.abort(new Error(`received ${name}`))
  }
  const listeners = SIGNALS.map((name) => [name, () => onSignal(name)] as const)
  for (const [name, listener] of listeners) process.on(name, listener)
  return {
    signal: controller.signal,
    dispose: () => {
      for (const [name, listener] of listeners) process.off(name, listener)
    },
  }
}
