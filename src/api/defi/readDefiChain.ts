import type { Kysely } from 'kysely'
import { zeroAddress } from 'viem'
import type { ChainConfig } from '../../config/types.ts'
import { readDefiPositions } from '../../defi/readDefiPositions.ts'
import type { DefiPosition } from '../../defi/types.ts'
import type { Address, Hex } from '../../evm/types.ts'
import type { Database } from '../../store/schema.ts'
import type { ApiContext } from '../apiContext.ts'
import { readTokenPrices } from '../prices/readTokenPrices.ts'
import { readDefiCandidates } from './readDefiCandidates.ts'
import {
  compareDefiPositions,
  type DefiToken,
  type ValuedDefiPosition,
  valueDefiPositions,
} from './valueDefiPositions.ts'

/** How one chain's part of an answer went. */
export type DefiChainResult =
  | {
      status: 'ok'
      chainId: number
      blockNumber: number
      positions: ValuedDefiPosition[]
      /**
       * Candidates the reader could not value (`not_owner` is not one: the NFT moved; nor is
       * `closed`: an LP NFT holding nothing).
       */
      skipped: number
      /** Candidates beyond the cap, not read. */
      truncated: number
    }
  /** The node failed, timed out or is not configured. */
  | { status: 'unavailable'; chainId: number }
  /** No checkpoint yet: nothing indexed to answer from. */
  | { status: 'unindexed'; chainId: number }

/**
 * One chain's positions of a wallet, read at the chain's checkpoint (block number and hash):
 * candidates from the store (`ctx.reads`), values from the API's node client within
 * `timeoutMs`, token facts and current prices from the store.
 */
export async function readDefiChain({
  ctx,
  chain,
  wallet,
  maxPositions,
  timeoutMs,
}: {
  ctx: Pick<ApiContext, 'reads' | 'evmRpc' | 'defiDeployments'>
  chain: ChainConfig
  wallet: Address
  maxPositions: number
  timeoutMs: number
}): Promise<DefiChainResult> {
  const { chainId } = chain
  const db = ctx.reads.db
  const checkpoint = await ctx.reads.getCheckpoint(chainId)
  if (!checkpoint) return { status: 'unindexed', chainId }
  const deployment = await ctx.defiDeployments.forChain(chain)
  const { candidates, total } = await readDefiCandidates({
    db,
    chain: { ...chain, defi: deployment },
    wallet,
    limit: maxPositions,
  })
  const done = { status: 'ok' as const, chainId, blockNumber: checkpoint.blockNumber }
  if (candidates.length === 0) return { ...done, positions: [], skipped: 0, truncated: 0 }
  const rpc = ctx.evmRpc.forChain(chainId)
  if (!rpc) return { status: 'unavailable', chainId }
  let read: Awaited<ReturnType<typeof readDefiPositions>>
  try {
    read = await readDefiPositions({
      rpc,
      blockNumber: BigInt(checkpoint.blockNumber),
      blockHash: checkpoint.blockHash as Hex,
      candidates,
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch {
    return { status: 'unavailable', chainId }
  }
  // Lido's stETH is priced as ether, and V4 pairs may hold ether itself (address zero).
  const ether = read.positions.some(
    (p) => p.type === 'lido' || (p.type === 'uniswap_v4' && BigInt(p.token0) === 0n),
  )
  const lido = ether
    ? [deployment.lido?.stEth, chain.wrappedNative].filter((a): a is Address => a != null)
    : []
  const tokens = await readDefiTokens({
    db,
    chain,
    addresses: [...read.positions.flatMap(tokensOf), ...lido],
  })
  const positions = valueDefiPositions({
    chainId,
    positions: read.positions,
    deployment,
    tokens,
    priceUnlistedVaults: chain.unlistedVaults === 'value',
    wrappedNative: chain.wrappedNative,
  })
  return {
    ...done,
    positions: positions.sort(compareDefiPositions),
    skipped: read.skipped.filter((s) => s.reason !== 'not_owner' && s.reason !== 'closed').length,
    truncated: total - candidates.length,
  }
}

function tokensOf(position: DefiPosition): Address[] {
  switch (position.type) {
    case 'uniswap_v2':
      return [position.pair, position.token0, position.token1]
    case 'uniswap_v3':
    case 'uniswap_v4':
      return [position.token0, position.token1]
    case 'erc4626':
      return [position.vault, position.asset]
    case 'lido':
      return [position.token]
    case 'aave':
      return [position.token, position.underlying]
    default: {
      const never: never = position
      throw new Error(`Unknown position type ${(never as { type: string }).type}.`)
    }
  }
}

/** Names, symbols and decimals from `tokens`, current prices from `token_prices`. */
async function readDefiTokens({
  db,
  chain,
  addresses,
}: {
  db: Kysely<Database>
  chain: ChainConfig
  addresses: readonly Address[]
}): Promise<Map<Address, DefiToken>> {
  // Address zero is the native asset (V4), never a stored token.
  const unique = [...new Set(addresses)].filter((a) => a !== zeroAddress)
  const out = new Map<Address, DefiToken>()
  if (unique.length === 0) return out
  const [rows, prices] = await Promise.all([
    db
      .selectFrom('tokens')
      .select(['address', 'name', 'symbol', 'decimals'])
      .where('chain_id', '=', chain.chainId)
      .where('address', 'in', unique)
      .execute(),
    readTokenPrices({ db, chain, assets: unique }),
  ])
  const facts = new Map(rows.map((r) => [r.address, r]))
  for (const address of unique) {
    const row = facts.get(address)
    const price = prices.get(address)
    out.set(address, {
      address,
      ...(row?.name != null ? { name: row.name } : {}),
      ...(row?.symbol != null ? { symbol: row.symbol } : {}),
      ...(row?.decimals != null ? { decimals: row.decimals } : {}),
      ...(price ? { priceUsd: price.priceUsd } : {}),
    })
  }
  return out
}
