import type { Insertable } from 'kysely'
import type { Store } from '../../src/store/createStore.ts'
import type { Database } from '../../src/store/schema.ts'
import { toU256 } from '../../src/store/u256.ts'
import type { DatasetPlan } from './createDatasetPlan.ts'
import { createRandom, type Random } from './createRandom.ts'

// 100 consonant-vowel syllables: names about as varied as real token names.
const SYLLABLES = [...'bcdfghjklmnprstvwxyz'].flatMap((c) => [...'aeiou'].map((v) => c + v))
const SUFFIXES = ['Token', 'Coin', 'Finance', 'Protocol', 'Dollar', 'Inu', 'Swap', 'DAO']
const CHUNK = 1_000

/** A made-up token name and symbol (`Zenkori Finance`, `ZKF`). */
function tokenName(random: Random): { name: string; symbol: string } {
  const parts = 2 + random.int(2)
  let stem = ''
  for (let i = 0; i < parts; i++) stem += SYLLABLES[random.int(SYLLABLES.length)]
  const word = stem[0]!.toUpperCase() + stem.slice(1)
  const suffix = SUFFIXES[random.int(SUFFIXES.length)]!
  return { name: `${word} ${suffix}`, symbol: (stem.slice(0, 3) + suffix[0]!).toUpperCase() }
}

/**
 * Adds `searchTokens` ERC20 tokens with made-up names (the search index fills through its
 * triggers as it would while indexing), and gives each busy wallet `perWallet` approvals of
 * the plan's tokens (ERC20 and Permit2 allowances, some unlimited, and operators). Returns
 * sample search queries: starts of names and symbols, as a person types them.
 */
export async function seedSearchAndApprovals({
  store,
  plan,
  chainId,
  searchTokens,
  perWallet,
}: {
  store: Store
  plan: DatasetPlan
  chainId: number
  searchTokens: number
  perWallet: number
}): Promise<{ queries: string[] }> {
  const random = createRandom(plan.seed + 13)
  const db = store.db
  await db.deleteFrom('tokens').where('address', 'like', '0x5ea4c%').execute()
  const queries: string[] = []
  for (let i = 0; i < searchTokens; i += CHUNK) {
    const rows: Insertable<Database['tokens']>[] = []
    for (let j = i; j < Math.min(i + CHUNK, searchTokens); j++) {
      const { name, symbol } = tokenName(random)
      if (queries.length < 200 && random.int(50) === 0) {
        // What people type into a search box: the start of a name or symbol, 3 to 5 letters.
        const text = random.int(4) === 0 ? symbol : name
        queries.push(text.slice(0, 3 + random.int(3)).trim())
      }
      rows.push({
        chain_id: chainId,
        address: `0x5ea4c${j.toString(16).padStart(35, '0')}`,
        standard: 'erc20',
        name,
        symbol,
        decimals: 18,
        total_supply: toU256(10n ** 24n),
        rebasing: 0,
        first_block: 1,
        block_number: 1,
      })
    }
    await db.insertInto('tokens').values(rows).execute()
  }

  await db.deleteFrom('approvals').where('chain_id', '=', chainId).execute()
  const busy = plan.wallets.slice(0, Math.max(1, plan.busy))
  const kinds = ['erc20', 'erc20', 'erc20', 'permit2', 'operator'] as const
  for (let i = 0; i < busy.length; i += 50) {
    const rows: Insertable<Database['approvals']>[] = []
    for (const owner of busy.slice(i, i + 50)) {
      const seen = new Set<string>()
      for (let k = 0; k < perWallet; k++) {
        const kind = kinds[random.int(kinds.length)]!
        const token = plan.tokens[random.int(plan.tokens.length)]!
        const spender = `0x${random.hex(5)}`
        if (seen.has(`${token}|${spender}|${kind}`)) continue
        seen.add(`${token}|${spender}|${kind}`)
        const allowance =
          kind === 'operator'
            ? 1n
            : random.int(3) === 0
              ? 2n ** 256n - 1n
              : BigInt(1 + random.int(1_000_000)) * 10n ** 15n
        const block = 1 + random.int(1000)
        rows.push({
          owner,
          chain_id: chainId,
          token,
          spender,
          kind,
          allowance: toU256(allowance),
          block_number: block,
          approved_block: block,
          approved_time: 1_700_000_000 + block * 12,
          tx_hash: `0x${random.hex(8)}`,
          expiration: kind === 'permit2' ? 4_000_000_000 : null,
        })
      }
    }
    await db.insertInto('approvals').values(rows).execute()
  }
  return { queries }
}
