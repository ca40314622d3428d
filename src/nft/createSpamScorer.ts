import type { Kysely } from 'kysely'
import type { Database } from '../store/schema.ts'
import { type CollectionMarket, readCollectionMarket } from './readCollectionMarket.ts'
import { type SpamScore, scoreCollection } from './scoreCollection.ts'
import { DEFAULT_SPAM_LIST, type SpamList } from './spamList.ts'
import { findSuspiciousWords, uriFeatures, uriText } from './spamTextFeatures.ts'

/** What the scorer needs of one collectible. */
export type SpamSubject = {
  chainId: number
  contract: string
  /** Collection name and symbol (tokens table). */
  collectionName?: string | null
  collectionSymbol?: string | null
  /** From the token's metadata, when loaded. */
  name?: string | null
  description?: string | null
  uri?: string | null
}

export type SpamScorer = { score(subjects: readonly SpamSubject[]): Promise<SpamScore[]> }

const MAX_CACHED = 10_000

/**
 * Spam scores of collectibles: the collection's market signals (read once per collection and
 * kept for `ttlMs`), the operator's list, and the item's own name, description and URI.
 */
export function createSpamScorer({
  db,
  spamList = DEFAULT_SPAM_LIST,
  ttlMs = 60_000,
  now = Date.now,
}: {
  db: Kysely<Database>
  spamList?: SpamList
  ttlMs?: number
  now?: () => number
}): SpamScorer {
  const cache = new Map<string, { market: Promise<CollectionMarket>; until: number }>()

  const market = (chainId: number, contract: string): Promise<CollectionMarket> => {
    const key = `${chainId}:${contract}`
    const hit = cache.get(key)
    if (hit && hit.until > now()) return hit.market
    if (cache.size >= MAX_CACHED) cache.clear()
    const read = readCollectionMarket({ db, chainId, contract })
    cache.set(key, { market: read, until: now() + ttlMs })
    // A failed read must not stay cached.
    read.catch(() => cache.delete(key))
    return read
  }

  return {
    async score(subjects) {
      return Promise.all(
        subjects.map(async (s) => {
          const m = await market(s.chainId, s.contract)
          const verdict = spamList.lookup({ chainId: s.chainId, contract: s.contract })
          const uri = s.uri ?? undefined
          const words = findSuspiciousWords([
            s.collectionName ?? undefined,
            s.collectionSymbol ?? undefined,
            s.name ?? undefined,
            s.description ?? undefined,
            uriText(uri),
          ])
          return scoreCollection({
            ...m,
            externallyFlagged: verdict.externallyFlagged,
            manualClassification: verdict.manualClassification,
            suspiciousWords: words.length,
            ...uriFeatures(uri),
          })
        }),
      )
    },
  }
}
