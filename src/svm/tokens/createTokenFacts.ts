import type { Store } from '../../store/createStore.ts'
import { parseMint } from '../parse/parseMint.ts'
import type { SvmRpc } from '../rpc/createSvmRpc.ts'
import { readTokenRows, writeTokenRows } from '../store/tokenRows.ts'
import { metadataCandidates, resolveTokenFacts, type TokenFacts } from './resolveTokenFacts.ts'

export type TokenFactsService = {
  /** Facts per mint (`undefined`: not a mint). Cached; read again once older than the TTL. */
  getMany(
    mints: readonly string[],
    signal?: AbortSignal,
  ): Promise<Map<string, TokenFacts | undefined>>
}

type Entry = { facts: TokenFacts | undefined; refreshedAt: number }

/**
 * Mint facts and metadata, cached in memory and in the store (`svm_tokens`) and read from
 * the node when missing or older than `ttlMs` (supply and mint authority change; metadata
 * rarely). One `getMultipleAccounts` for the mints, one for their metadata candidates.
 */
export function createTokenFacts({
  chain,
  rpc,
  store,
  ttlMs = 60_000,
  now = Date.now,
}: {
  chain: string
  rpc: SvmRpc
  store: Store
  ttlMs?: number
  now?: () => number
}): TokenFactsService {
  const memory = new Map<string, Entry>()
  const fresh = (entry: Entry | undefined) =>
    entry !== undefined && now() - entry.refreshedAt < ttlMs

  async function readFromNode(mints: string[], signal?: AbortSignal) {
    const accounts = await rpc.getMultipleAccounts(mints, signal)
    const candidateLists = mints.map((mint, i) => {
      const account = accounts[i]
      const parsed = account ? parseMint(account.data) : undefined
      return parsed ? metadataCandidates({ mint, parsed }) : []
    })
    const flat = [...new Set(candidateLists.flat())]
    const read = flat.length > 0 ? await rpc.getMultipleAccounts(flat, signal) : []
    const byAddress = new Map(flat.map((address, i) => [address, read[i]]))
    const at = now()
    return mints.map((mint, i) => ({
      mint,
      entry: {
        facts: resolveTokenFacts({
          address: mint,
          account: accounts[i],
          candidates: candidateLists[i]!.map((address) => byAddress.get(address)),
        }),
        refreshedAt: at,
      },
    }))
  }

  return {
    async getMany(mints, signal) {
      const wanted = [...new Set(mints)]
      let missing = wanted.filter((mint) => !fresh(memory.get(mint)))
      if (missing.length > 0) {
        const rows = await readTokenRows({ db: store.db, chain, mints: missing })
        for (const row of rows) if (fresh(row)) memory.set(row.facts.mint, row)
        missing = missing.filter((mint) => !fresh(memory.get(mint)))
      }
      if (missing.length > 0) {
        const read = await readFromNode(missing, signal)
        for (const { mint, entry } of read) memory.set(mint, entry)
        const known = read.flatMap(({ entry }) => (entry.facts ? [entry.facts] : []))
        await writeTokenRows({ db: store.db, chain, facts: known, refreshedAt: now() })
      }
      return new Map(wanted.map((mint) => [mint, memory.get(mint)?.facts]))
    },
  }
}
