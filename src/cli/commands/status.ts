import type { ScryConfig } from '../../config/types.ts'

/** `scry status`: per chain, indexed head against node head, then exit. */
export async function runStatus({ config }: { config: ScryConfig }): Promise<number> {
  void config
  throw new Error('not implemented yet')
}
