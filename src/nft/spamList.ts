import { ConfigError } from '../internal/errors.ts'
import defaultEntries from './spamList.json' with { type: 'json' }

/** One collection on the operator's list (`src/nft/spamList.json`, empty by default). */
export type SpamListEntry = {
  chain_id: number
  contract: string
  /** Flagged as spam by an outside source (a marketplace, a scanner). */
  externally_flagged?: boolean
  /** The operator's own verdict; it decides the score. */
  classification?: 'spam' | 'not_spam'
}

export type SpamListVerdict = {
  externallyFlagged: boolean
  manualClassification: 'spam' | 'not_spam' | undefined
}

export type SpamList = {
  lookup(args: { chainId: number; contract: string }): SpamListVerdict
}

/** A spam list from entries (validated with `parseSpamList` when they come from a file). */
export function createSpamList(entries: readonly SpamListEntry[] = []): SpamList {
  const byKey = new Map(entries.map((e) => [`${e.chain_id}:${e.contract.toLowerCase()}`, e]))
  return {
    lookup({ chainId, contract }) {
      const entry = byKey.get(`${chainId}:${contract.toLowerCase()}`)
      return {
        externallyFlagged: entry?.externally_flagged === true,
        manualClassification: entry?.classification,
      }
    },
  }
}

/** Validates a spam list read from JSON; throws a `ConfigError` naming the bad entry. */
export function parseSpamList(json: unknown): SpamListEntry[] {
  if (!Array.isArray(json)) throw new ConfigError('The spam list must be a JSON array.')
  return json.map((raw, i) => {
    const bad = (why: string) => new ConfigError(`Spam list entry ${i}: ${why}.`)
    if (typeof raw !== 'object' || raw === null) throw bad('not an object')
    const e = raw as Record<string, unknown>
    if (!Number.isSafeInteger(e.chain_id) || (e.chain_id as number) <= 0) {
      throw bad('chain_id must be a positive integer')
    }
    if (typeof e.contract !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(e.contract)) {
      throw bad('contract must be a 0x address')
    }
    if (e.externally_flagged !== undefined && typeof e.externally_flagged !== 'boolean') {
      throw bad('externally_flagged must be true or false')
    }
    if (
      e.classification !== undefined &&
      e.classification !== 'spam' &&
      e.classification !== 'not_spam'
    ) {
      throw bad('classification must be "spam" or "not_spam"')
    }
    const entry: SpamListEntry = {
      chain_id: e.chain_id as number,
      contract: e.contract.toLowerCase(),
    }
    if (e.externally_flagged !== undefined)
      entry.externally_flagged = e.externally_flagged as boolean
    if (e.classification !== undefined)
      entry.classification = e.classification as 'spam' | 'not_spam'
    return entry
  })
}

/** The list shipped with Scry (empty). */
export const DEFAULT_SPAM_LIST: SpamList = createSpamList(parseSpamList(defaultEntries))
