import type { ChainConfig } from '../config/types.ts'
import { ConfigError } from '../internal/errors.ts'

/**
 * `scry start --chains 1,8453`: the configured chains this process indexes (none given: every
 * configured chain). An id that is not configured is an error, not silently nothing indexed.
 */
export function parseIndexChains({
  text,
  chains,
}: {
  text: string | undefined
  chains: readonly ChainConfig[]
}): readonly ChainConfig[] {
  if (text === undefined) return chains
  const ids = text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
  const configured = chains.map((c) => c.chainId).join(', ') || 'none'
  if (ids.length === 0) {
    throw new ConfigError('--chains is empty.', {
      details: `Give chain ids, comma-separated (configured: ${configured}).`,
    })
  }
  return ids.map((id) => {
    const chain = /^\d{1,15}$/.test(id) ? chains.find((c) => c.chainId === Number(id)) : undefined
    if (!chain) {
      throw new ConfigError(
        `--chains names chain ${JSON.stringify(id.slice(0, 40))}, which is not configured.`,
        {
          details: `Configured chains: ${configured}. Give each an RPC source (--rpc <chainId>=<url>).`,
        },
      )
    }
    return chain
  })
}
