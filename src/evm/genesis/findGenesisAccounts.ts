import { readFile } from 'node:fs/promises'
import { ConfigError } from '../../internal/errors.ts'
import type { RpcClient } from '../rpc/createRpcClient.ts'
import { RpcResponseError } from '../rpc/errors.ts'
import type { Address } from '../types.ts'
import { parseGenesisAlloc } from './parseGenesisAlloc.ts'

export type GenesisSource = 'genesis_file' | 'debug_accountRange' | 'dev_accounts'

export type GenesisAccounts = {
  /** Where the addresses came from; empty when no source was available. */
  sources: GenesisSource[]
  addresses: Address[]
}

/** geth answers at most 256 accounts per page. */
const PAGE = 256
/** Up to 256,000 accounts: more than any chain spec (Ethereum's genesis: 8,893 accounts). */
const MAX_PAGES = 1_000
const DEV_NODE = /^(anvil|hardhatnetwork|ganache)\b/i

type AccountRange = {
  accounts?: Record<string, { balance?: string; address?: string }>
  next?: string | null
}

/**
 * The accounts funded at genesis, whose balances no transaction ever shows: the `alloc` of
 * the chain's `genesis.json` when configured, together with what the node tells: its
 * `debug_accountRange` at block 0 (geth with the genesis state and its preimages), else a dev
 * node's own funded accounts (anvil, Hardhat, Ganache: `eth_accounts`; they fund those at
 * genesis even when started from a chain spec). Only the addresses matter: the balances are
 * read from the node.
 */
export async function findGenesisAccounts({
  rpc,
  genesisFile,
  signal,
}: {
  rpc: RpcClient
  genesisFile: string | undefined
  signal?: AbortSignal
}): Promise<GenesisAccounts> {
  const opts = signal ? { signal } : {}
  const sources: GenesisSource[] = []
  const addresses = new Set<Address>()
  const add = (source: GenesisSource, found: readonly Address[]) => {
    sources.push(source)
    for (const address of found) addresses.add(address)
  }
  if (genesisFile !== undefined) add('genesis_file', await readAlloc(genesisFile))

  const ranged = await accountRange(rpc, opts)
  if (ranged) add('debug_accountRange', ranged)
  else {
    const client = await rpc
      .request<string>({ method: 'web3_clientVersion' }, opts)
      .catch((error: unknown) => {
        if (error instanceof RpcResponseError) return ''
        throw error
      })
    if (DEV_NODE.test(client)) {
      const accounts = await rpc.request<string[]>({ method: 'eth_accounts' }, opts)
      add(
        'dev_accounts',
        accounts.map((a) => a.toLowerCase() as Address),
      )
    }
  }
  return { sources, addresses: [...addresses] }
}

async function readAlloc(path: string): Promise<Address[]> {
  try {
    return parseGenesisAlloc(JSON.parse(await readFile(path, 'utf8')))
  } catch (error) {
    throw new ConfigError(`Cannot read the genesis accounts from ${path}.`, {
      details: `${error instanceof Error ? error.message : String(error)}. Point --genesis <chainId>=<path> (chains.<id>.genesis) at the chain's genesis.json, or leave it out to ask the node.`,
    })
  }
}

/** Funded accounts by `debug_accountRange` at block 0; undefined where the node cannot say. */
async function accountRange(
  rpc: RpcClient,
  opts: { signal?: AbortSignal },
): Promise<Address[] | undefined> {
  const funded: Address[] = []
  let start: string = '0x'
  for (let page = 0; page < MAX_PAGES; page++) {
    let result: AccountRange
    try {
      // (block, start key, max results, nocode, nostorage, incompletes)
      result = await rpc.request<AccountRange>(
        { method: 'debug_accountRange', params: ['0x0', start, PAGE, true, true, false] },
        opts,
      )
    } catch (error) {
      // Not offered, or no state at block 0 (a pruned node): another source may do.
      if (error instanceof RpcResponseError) return undefined
      throw error
    }
    for (const [key, account] of Object.entries(result.accounts ?? {})) {
      const address = (account.address ?? key).toLowerCase()
      if (!/^0x[0-9a-f]{40}$/.test(address) || /^0x0{40}$/.test(address)) continue
      if (account.balance !== undefined && BigInt(account.balance) > 0n)
        funded.push(address as Address)
    }
    if (!result.next || result.next === '0x') return funded
    start = result.next
  }
  return funded
}
