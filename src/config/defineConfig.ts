import type { ScryConfigFile } from './types.ts'

/** Types a `scry.config.ts` default export: `export default defineConfig({ … })`. */
export function defineConfig(config: ScryConfigFile): ScryConfigFile {
  return config
}
