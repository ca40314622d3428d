import type { ScryConfig } from '../../config/types.ts'

/** `scry start`: index the configured chains and serve the API until `signal` aborts. */
export async function runStart({
  config,
  signal,
}: {
  config: ScryConfig
  signal: AbortSignal
}): Promise<number> {
  void config
  void signal
  throw new Error('not implemented yet')
}
