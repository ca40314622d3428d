import { isAbsolute, relative } from 'node:path'
import type { LocalChain } from './startLocalChains.ts'

/**
 * The "Try:" block `scry dev` prints once it is ready: the dev API key and commands that work
 * right now against the running API, chains and database, ready to paste into another
 * terminal.
 */
export function formatTryBlock({
  chains,
  databaseFile,
  apiUrl,
  apiKey,
  cwd = process.cwd(),
}: {
  chains: readonly LocalChain[]
  databaseFile: string
  apiUrl: string
  apiKey: string
  cwd?: string
}): string {
  const first = chains[0]
  if (!first) return ''
  const rel = relative(cwd, databaseFile)
  // Shorter to read and paste when the database sits below the working directory.
  const database = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : databaseFile
  const rpcFlags = chains.map((c) => `--rpc ${c.chainId}=${c.anvil.rpcUrl}`).join(' ')
  // Two of anvil's dev accounts (the same on every chain) and one generated wallet of this chain.
  const wallets = [first.world.wallets[1], first.world.wallets[2], first.world.wallets.at(-2)]
    .filter((w) => w !== undefined)
    .filter((w, i, all) => all.indexOf(w) === i)
  const wallet =
    wallets[0] ?? first.world.wallets[0] ?? '0x0000000000000000000000000000000000000000'
  const token = first.world.tokens.find((t) => t.kind === 'erc20')?.address
  const deployer = first.world.wallets[0]
  const ids = chains.map((c) => c.chainId).join(',')
  const api = (path: string) => `curl -s '${apiUrl}${path}' -H 'X-Scry-Api-Key: ${apiKey}'`
  return [
    `API: ${apiUrl}  (docs: ${apiUrl}/docs)`,
    `Dev API key: ${apiKey}`,
    '',
    'Try (in another terminal):',
    `  ${api(`/v1/evm/balances/${wallet}?chain_ids=${ids}`)}`,
    `  ${api(`/v1/evm/activity/${wallet}?chain_ids=${first.chainId}&limit=5`)}`,
    `  ${api(`/v1/evm/transactions/${wallet}?chain_ids=${first.chainId}&limit=2&decode=true`)}`,
    `  ${api(`/v1/evm/collectibles/${wallet}?chain_ids=${ids}&limit=5`)}`,
    ...(token ? [`  ${api(`/v1/evm/token-holders/${first.chainId}/${token}?limit=5`)}`] : []),
    // The deployer (anvil's first account) holds the demo's Uniswap V2 and V3 liquidity.
    ...(deployer ? [`  ${api(`/v1/evm/defi/positions/${deployer}?chain_ids=${ids}`)}`] : []),
    `  npx scry status --database ${database} ${rpcFlags}`,
    `Demo wallets on ${first.label}: ${wallets.join(', ')}`,
    '',
  ].join('\n')
}
