import type { ScryConfig } from '../../config/types.ts'

/** `scry migrate`: apply pending database migrations, then exit. */
export async function runMigrate({ config }: { config: ScryConfig }): Promise<number> {
  void config
  throw new Error('not implemented yet')
}
