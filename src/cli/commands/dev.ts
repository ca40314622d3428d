import type { ScryConfig } from '../../config/types.ts'

export type DevOptions = {
  /** Chain ids of the local chains to run (`--chains`); `undefined` when not given. */
  chains: number[] | undefined
}

/** `scry dev`: local chains, demo data, indexer, API and webhooks in one process. */
export async function runDev({
  config,
  options,
  signal,
}: {
  config: ScryConfig
  options: DevOptions
  signal: AbortSignal
}): Promise<number> {
  void config
  void options
  void signal
  throw new Error('not implemented yet')
}
