import type { Kysely } from 'kysely'
import type { Database } from '../../store/schema.ts'
import { fromU256, U256_ZERO } from '../../store/u256.ts'

/** One balance as read from the store: the native asset (`native`) or an ERC20 token. */
export type BalanceRow = {
  chainId: number
  address: 'native' | `0x${string}`
  amount: bigint
  /** Token metadata as the contract reported it; absent where it could not be read. */
  symbol?: string
  name?: string
  decimals?: number
  /** Read at a past block (`block_number`/`at`) rather than at the indexed head. */
  at?: { blockNumber: number; blockTime: number }
}

/** Which rows a list holds. */
export type BalanceSelection = {
  wallet: `0x${string}`
  /** Served chains, ascending. */
  chainIds: readonly number[]
  natives: boolean
  tokens: boolean
  /** Restricts rows to a token list per chain (stablecoins); natives where `hasNative`. */
  only?: {
    tokens(chainId: number): readonly string[]
    hasNative(chainId: number): boolean
  }
}

/**
 * All of a wallet's non-zero balances in the selection. Token rows are a range scan of
 * `token_balances`' primary key (address, chain_id, token) joined to `tokens` by its key;
 * native rows are at most one per chain. The caller prices and orders them (by USD value,
 * which changes with every price and so cannot be an index): a wallet's holdings, unlike
 * its history, are read whole.
 */
export async function readBalanceRows({
  db,
  selection,
}: {
  db: Kysely<Database>
  selection: BalanceSelection
}): Promise<BalanceRow[]> {
  const { only } = selection
  const nativeChains = selection.natives
    ? selection.chainIds.filter((c) => !only || only.hasNative(c))
    : []
  const tokenChains = selection.tokens
    ? selection.chainIds.filter((c) => !only || only.tokens(c).length > 0)
    : []
  const [natives, tokens] = await Promise.all([
    readNatives({ db, wallet: selection.wallet, chainIds: nativeChains }),
    readTokens({ db, wallet: selection.wallet, chainIds: tokenChains, only }),
  ])
  return [...natives, ...tokens]
}

/**
 * The wallet's balance of one asset on one chain (zero when it holds none), or `undefined`
 * for a token that is not a known ERC20 on that chain.
 */
export async function readOneBalance({
  db,
  wallet,
  chainId,
  address,
}: {
  db: Kysely<Database>
  wallet: `0x${string}`
  chainId: number
  address: 'native' | `0x${string}`
}): Promise<BalanceRow | undefined> {
  if (address === 'native') {
    const [row] = await readNatives({ db, wallet, chainIds: [chainId], withZero: true })
    return row ?? { chainId, address, amount: 0n }
  }
  const token = await db
    .selectFrom('tokens')
    .select(['symbol', 'name', 'decimals'])
    .where('chain_id', '=', chainId)
    .where('address', '=', address)
    .where('standard', '=', 'erc20')
    .executeTakeFirst()
  if (!token) return undefined
  const balance = await db
    .selectFrom('token_balances')
    .select('balance')
    .where('address', '=', wallet)
    .where('chain_id', '=', chainId)
    .where('token', '=', address)
    .executeTakeFirst()
  return tokenRow({
    chain_id: chainId,
    token: address,
    balance: balance?.balance ?? U256_ZERO,
    ...token,
  })
}

async function readNatives({
  db,
  wallet,
  chainIds,
  withZero = false,
}: {
  db: Kysely<Database>
  wallet: `0x${string}`
  chainIds: readonly number[]
  withZero?: boolean
}): Promise<BalanceRow[]> {
  if (chainIds.length === 0) return []
  let query = db
    .selectFrom('native_balances')
    .select(['chain_id', 'balance'])
    .where('address', '=', wallet)
    .where('chain_id', 'in', chainIds)
  if (!withZero) query = query.where('balance', '!=', U256_ZERO)
  const rows = await query.execute()
  return rows.map((r) => ({
    chainId: r.chain_id,
    address: 'native' as const,
    amount: fromU256(r.balance),
  }))
}

async function readTokens({
  db,
  wallet,
  chainIds,
  only,
}: {
  db: Kysely<Database>
  wallet: `0x${string}`
  chainIds: readonly number[]
  only: BalanceSelection['only']
}): Promise<BalanceRow[]> {
  if (chainIds.length === 0) return []
  let query = db
    .selectFrom('token_balances as b')
    .innerJoin('tokens as t', (join) =>
      join.onRef('t.chain_id', '=', 'b.chain_id').onRef('t.address', '=', 'b.token'),
    )
    .select(['b.chain_id', 'b.token', 'b.balance', 't.symbol', 't.name', 't.decimals'])
    .where('b.address', '=', wallet)
    .where('b.chain_id', 'in', chainIds)
    .where('b.balance', '!=', U256_ZERO)
    .where('t.standard', '=', 'erc20')
  if (only) {
    query = query.where((eb) =>
      eb.or(
        chainIds.map((c) =>
          eb.and([eb('b.chain_id', '=', c), eb('b.token', 'in', only.tokens(c))]),
        ),
      ),
    )
  }
  const rows = await query.execute()
  return rows.map(tokenRow)
}

function tokenRow(r: {
  chain_id: number
  token: string
  balance: string
  symbol: string | null
  name: string | null
  decimals: number | null
}): BalanceRow {
  return {
    chainId: r.chain_id,
    address: r.token as `0x${string}`,
    amount: fromU256(r.balance),
    ...(r.symbol !== null ? { symbol: r.symbol } : {}),
    ...(r.name !== null ? { name: r.name } : {}),
    ...(r.decimals !== null ? { decimals: r.decimals } : {}),
  }
}
