import type { Kysely } from 'kysely'
import type { ChainConfig } from '../../config/types.ts'
import { defiDeployment } from '../../defi/defiDeployments.ts'
import type { AaveKind, AaveVersion, DefiCandidate } from '../../defi/types.ts'
import type { Address } from '../../evm/types.ts'
import type { Database, DefiTokenKind } from '../../store/schema.ts'
import { fromU256, U256_ZERO } from '../../store/u256.ts'

/** The stored kinds of Aave tokens, with what each is. */
const AAVE_KINDS = new Map<DefiTokenKind, { version: AaveVersion; kind: AaveKind }>([
  ['aave_v2_atoken', { version: 2, kind: 'atoken' }],
  ['aave_v2_vdebt', { version: 2, kind: 'vdebt' }],
  ['aave_v3_atoken', { version: 3, kind: 'atoken' }],
  ['aave_v3_vdebt', { version: 3, kind: 'vdebt' }],
])

/**
 * The holdings of a wallet on one chain that may be DeFi positions, by index lookups on the
 * wallet's keys: its `token_balances` rows whose token is a trusted `uniswap_v2` pool of a
 * configured factory (pools' primary key), a listed vault, Lido's stETH or wstETH, or (unless
 * `unlistedVaults` is `off`) a vault found at ingest (`defi_tokens` erc4626, primary key), but
 * never a vault of `deniedVaults`, or an Aave token of one of the chain's Aave V2 or V3 pools
 * (`defi_tokens` aave kinds, its pool configured), and its `nft_holdings` rows of the chain's
 * V3 position managers and V4 PositionManagers. At most `limit`: Aave debt, Aave deposits,
 * Lido, vaults, V2 pairs, then V3 and V4 NFTs (each by address, NFTs newest first), so a cap
 * leaves out LP NFTs before anything else, the oldest first; `total` counts all.
 */
export async function readDefiCandidates({
  db,
  chain,
  wallet,
  limit,
}: {
  db: Kysely<Database>
  chain: Pick<ChainConfig, 'chainId' | 'dexFactories' | 'defi' | 'unlistedVaults' | 'deniedVaults'>
  wallet: Address
  limit: number
}): Promise<{ candidates: DefiCandidate[]; total: number }> {
  const { chainId } = chain
  const deployment = defiDeployment(chain)
  if (deployment.off) return { candidates: [], total: 0 }
  const factories = chain.dexFactories.filter((f) => f.type === 'uniswap_v2').map((f) => f.address)
  const managers = new Map(deployment.v3Managers.map((m) => [m.address, m]))
  const v4Managers = new Map((deployment.v4Managers ?? []).map((m) => [m.positionManager, m]))
  const nftContracts = [...managers.keys(), ...v4Managers.keys()]
  const vaults = deployment.vaults.map((v) => v.address)
  const lido = deployment.lido
  const lidoKinds = new Map<Address, 'steth' | 'wsteth'>(
    lido
      ? [
          [lido.stEth, 'steth'],
          [lido.wstEth, 'wsteth'],
        ]
      : [],
  )
  const listed = [...vaults, ...lidoKinds.keys()]
  const denied = new Set<string>(chain.deniedVaults)
  const aavePools = [...(deployment.aaveV2Pools ?? []), ...(deployment.aaveV3Pools ?? [])]

  const [pairs, listedRows, detected, nfts, aave] = await Promise.all([
    factories.length === 0
      ? []
      : db
          .selectFrom('token_balances as b')
          .innerJoin('pools as p', (j) =>
            j.onRef('p.chain_id', '=', 'b.chain_id').onRef('p.address', '=', 'b.token'),
          )
          .select(['b.token', 'p.factory'])
          .where('b.address', '=', wallet)
          .where('b.chain_id', '=', chainId)
          .where('b.balance', '!=', U256_ZERO)
          .where('p.type', '=', 'uniswap_v2')
          .where('p.trusted', '=', 1)
          .where('p.factory', 'in', factories)
          .orderBy('b.token')
          .execute(),
    listed.length === 0
      ? []
      : db
          .selectFrom('token_balances')
          .select('token')
          .where('address', '=', wallet)
          .where('chain_id', '=', chainId)
          .where('token', 'in', listed)
          .where('balance', '!=', U256_ZERO)
          .orderBy('token')
          .execute(),
    chain.unlistedVaults === 'off'
      ? []
      : db
          .selectFrom('token_balances as b')
          .innerJoin('defi_tokens as d', (j) =>
            j.onRef('d.chain_id', '=', 'b.chain_id').onRef('d.address', '=', 'b.token'),
          )
          .select('b.token')
          .where('b.address', '=', wallet)
          .where('b.chain_id', '=', chainId)
          .where('b.balance', '!=', U256_ZERO)
          .where('d.kind', '=', 'erc4626')
          .orderBy('b.token')
          .execute(),
    nftContracts.length === 0
      ? []
      : db
          .selectFrom('nft_holdings')
          .select(['contract', 'token_id'])
          .where('address', '=', wallet)
          .where('chain_id', '=', chainId)
          .where('contract', 'in', nftContracts)
          .orderBy('contract')
          // Newest first (managers number their NFTs in mint order): past the cap, the old
          // ones go, which an LP has most likely closed (closed NFTs are dropped when read).
          .orderBy('token_id', 'desc')
          .execute(),
    aavePools.length === 0
      ? []
      : db
          .selectFrom('token_balances as b')
          .innerJoin('defi_tokens as d', (j) =>
            j.onRef('d.chain_id', '=', 'b.chain_id').onRef('d.address', '=', 'b.token'),
          )
          .select(['b.token', 'd.kind', 'd.pool', 'd.underlying'])
          .where('b.address', '=', wallet)
          .where('b.chain_id', '=', chainId)
          .where('b.balance', '!=', U256_ZERO)
          .where('d.kind', 'in', [...AAVE_KINDS.keys()])
          .where('d.pool', 'in', aavePools)
          .orderBy('b.token')
          .execute(),
  ])

  const vaultRows = listedRows.filter((r) => vaults.includes(r.token as Address))
  const lidoRows = listedRows.filter((r) => lidoKinds.has(r.token as Address))
  // Past the cap the last kinds are left out: debt first (leaving it out would overstate the
  // wallet), then the fungible positions, and LP NFTs last (an active LP keeps hundreds).
  const aaveRows = [...aave].sort(
    (a, b) =>
      Number(AAVE_KINDS.get(b.kind)?.kind === 'vdebt') -
      Number(AAVE_KINDS.get(a.kind)?.kind === 'vdebt'),
  )
  const candidates: DefiCandidate[] = [
    ...aaveRows.flatMap((r): DefiCandidate[] => {
      // The version is the pool's own answer at ingest (`probeAaveTokens`), not config's.
      const token = AAVE_KINDS.get(r.kind)
      return token && r.underlying
        ? [
            {
              type: 'aave',
              version: token.version,
              owner: wallet,
              token: r.token as Address,
              kind: token.kind,
              pool: r.pool as Address,
              underlying: r.underlying as Address,
            },
          ]
        : []
    }),
    ...lidoRows.flatMap((r): DefiCandidate[] => {
      const kind = lidoKinds.get(r.token as Address)
      return kind ? [{ type: 'lido', owner: wallet, token: r.token as Address, kind }] : []
    }),
    ...[
      ...vaultRows.map((r) => ({ vault: r.token as Address, listed: true })),
      ...detected
        .filter((r) => !vaults.includes(r.token as Address))
        .map((r) => ({ vault: r.token as Address, listed: false })),
    ]
      .filter((v) => !denied.has(v.vault))
      .sort((a, b) => (a.vault < b.vault ? -1 : a.vault > b.vault ? 1 : 0))
      .map((v): DefiCandidate => ({ type: 'erc4626', owner: wallet, ...v })),
    ...pairs.flatMap((r): DefiCandidate[] =>
      r.factory
        ? [
            {
              type: 'uniswap_v2',
              owner: wallet,
              pair: r.token as Address,
              factory: r.factory as Address,
            },
          ]
        : [],
    ),
    ...nfts.flatMap((r): DefiCandidate[] => {
      const tokenId = fromU256(r.token_id)
      const v3 = managers.get(r.contract as Address)
      if (v3) return [{ type: 'uniswap_v3', owner: wallet, manager: v3, tokenId }]
      const v4 = v4Managers.get(r.contract as Address)
      return v4 ? [{ type: 'uniswap_v4', owner: wallet, manager: v4, tokenId }] : []
    }),
  ]
  return { candidates: candidates.slice(0, limit), total: candidates.length }
}
