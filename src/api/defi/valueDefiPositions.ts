import { formatUnits, numberToHex, zeroAddress } from 'viem'
import { nativeCurrency } from '../../chains/nativeCurrencies.ts'
import { DEFAULT_V2_PROTOCOL, type DefiDeployment } from '../../defi/defiDeployments.ts'
import type {
  AaveKind,
  AaveVersion,
  DefiPosition,
  UniswapV3Position,
  UniswapV4Position,
} from '../../defi/types.ts'
import type { Address, Hex } from '../../evm/types.ts'

/** What the store knows of a token, and its current USD price when it has one. */
export type DefiToken = {
  address: Address
  name?: string
  symbol?: string
  decimals?: number
  priceUsd?: number
}

/** A raw amount of a token with its decimal form (when decimals are known) and USD value. */
export type DefiAmount = { raw: bigint; units?: number; valueUsd: number }

export type DefiNftRange = {
  tokenId: bigint
  tickLower: number
  tickUpper: number
  liquidity: bigint
  inRange: boolean
  /** Principal: what a full decrease pays. */
  holdings0: DefiAmount
  holdings1: DefiAmount
  /** What `collect` pays: fees plus tokensOwed. */
  rewards0: DefiAmount
  rewards1: DefiAmount
}

/** One position as both serializers see it: the numbers, named once. */
export type ValuedDefiPosition = {
  chainId: number
  protocol: string
  /** The pair, the V3 pool, or the vault. */
  pool: Address
  valueUsd: number
} & (
  | {
      type: 'UniswapV2'
      lp: DefiToken
      lpBalance: DefiAmount
      /** USD per whole LP token, when both tokens are priced. */
      unitPriceUsd?: number
      token0: DefiToken
      token1: DefiToken
      holdings0: DefiAmount
      holdings1: DefiAmount
    }
  | { type: 'Nft'; token0: DefiToken; token1: DefiToken; positions: DefiNftRange[] }
  | {
      /** One V4 position NFT; `pool` is the pool id. */
      type: 'NftV4'
      poolManager: Address
      /** The position's salt in the PoolManager: the token id as 32 bytes. */
      salt: Hex
      hooks: Address
      /** Address zero: the native asset (18 decimals, priced as the wrapped native token). */
      token0: DefiToken
      token1: DefiToken
      positions: [DefiNftRange]
    }
  | {
      type: 'Erc4626'
      vault: DefiToken
      shares: DefiAmount
      /** USD per whole share, when the underlying token is priced. */
      unitPriceUsd?: number
      underlying: DefiToken
      /** `previewRedeem(shares)`: what redeeming pays now; the holdings. */
      previewRedeem: DefiAmount
      convertToAssets: DefiAmount
    }
  | {
      type: 'Tokenized'
      tokenType: TokenizedType
      token: DefiToken
      /**
       * The scaled balance: stETH shares, wstETH, Aave's `scaledBalanceOf`. Negative for debt,
       * as are `holdings` and the value.
       */
      balance: DefiAmount
      /** USD per whole `balance` unit, when the underlying is priced. */
      unitPriceUsd?: number
      /**
       * ETH (as the wrapped native token) for stETH, stETH for wstETH (priced as ETH), the
       * reserve's asset for Aave.
       */
      underlying: DefiToken
      /** What the balance is worth in the underlying: Aave's `balanceOf` (interest included). */
      holdings: DefiAmount
      /** Lido: stETH; Aave: the Pool. */
      lendingPool: Address
      /** Aave: the owner's health factor in the pool, null without debt. */
      healthFactor?: number | null
    }
)

export type TokenizedType =
  | 'StETH'
  | 'WstETH'
  | 'AtokenV3'
  | 'AaveV3VariableDebt'
  | 'AtokenV2'
  | 'AaveV2VariableDebt'

/** Sim's `token_type` of an Aave token, by version and kind. */
const AAVE_TOKEN_TYPES = {
  2: { atoken: 'AtokenV2', vdebt: 'AaveV2VariableDebt' },
  3: { atoken: 'AtokenV3', vdebt: 'AaveV3VariableDebt' },
} as const satisfies Record<AaveVersion, Record<AaveKind, TokenizedType>>

const TYPE_ORDER = ['Erc4626', 'Nft', 'NftV4', 'Tokenized', 'UniswapV2'] as const

/**
 * Values one chain's positions with token facts and prices: every amount × its token's price
 * (an unpriced token, or one without decimals, adds 0); a V3 or V4 position's rewards count.
 * V3 NFTs of one pool become one `Nft` entry with a range per NFT, in token id order; each V4
 * NFT is an `NftV4` entry of its own (its salt differs). Without
 * `priceUnlistedVaults` (config `unlistedVaults: list`), shares of unlisted vaults are shown
 * as if their underlying token had no price: holdings, no USD value. Lido's stETH and wstETH
 * are valued at what they redeem for, priced as ETH (`wrappedNative`), not at their own market.
 * Aave tokens are valued at their `balanceOf` in the reserve's asset; debt counts negative.
 */
export function valueDefiPositions({
  chainId,
  positions,
  deployment,
  tokens,
  priceUnlistedVaults = true,
  wrappedNative = null,
}: {
  chainId: number
  positions: readonly DefiPosition[]
  deployment: DefiDeployment
  /** Facts and prices of every token the positions name (missing: address only). */
  tokens: ReadonlyMap<Address, DefiToken>
  /** Default true. */
  priceUnlistedVaults?: boolean
  /** The chain's wrapped native token, whose price is ETH's. Default none (Lido unpriced). */
  wrappedNative?: Address | null
}): ValuedDefiPosition[] {
  const wrapped = wrappedNative ? tokens.get(wrappedNative) : undefined
  // The native asset in a V4 pool: address zero, named as the balances name it, priced as its
  // wrapped token.
  const { symbol, name, decimals } = nativeCurrency(chainId)
  const native: DefiToken = {
    address: zeroAddress,
    name,
    symbol,
    decimals,
    ...(wrapped?.priceUsd === undefined ? {} : { priceUsd: wrapped.priceUsd }),
  }
  const token = (address: Address): DefiToken =>
    address === zeroAddress ? native : (tokens.get(address) ?? { address })
  const amount = (address: Address, raw: bigint): DefiAmount => toAmount(token(address), raw)
  const out: ValuedDefiPosition[] = []
  const pools = new Map<string, UniswapV3Position[]>()
  for (const p of positions) {
    switch (p.type) {
      case 'uniswap_v2': {
        const holdings0 = amount(p.token0, p.amount0)
        const holdings1 = amount(p.token1, p.amount1)
        const lpBalance = { ...amount(p.pair, p.lpBalance), valueUsd: 0 }
        const valueUsd = holdings0.valueUsd + holdings1.valueUsd
        const priced = [p.token0, p.token1].every((t) => token(t).priceUsd !== undefined)
        out.push({
          type: 'UniswapV2',
          chainId,
          protocol: deployment.v2Protocols[p.factory] ?? DEFAULT_V2_PROTOCOL,
          pool: p.pair,
          lp: token(p.pair),
          lpBalance,
          ...perUnit(valueUsd, lpBalance, priced),
          token0: token(p.token0),
          token1: token(p.token1),
          holdings0,
          holdings1,
          valueUsd,
        })
        break
      }
      case 'uniswap_v3': {
        const key = `${p.manager}|${p.pool}`
        pools.set(key, [...(pools.get(key) ?? []), p])
        break
      }
      case 'erc4626': {
        const { priceUsd: _, ...unpriced } = token(p.asset)
        const underlying: DefiToken = p.listed || priceUnlistedVaults ? token(p.asset) : unpriced
        const previewRedeem = toAmount(underlying, p.previewRedeem)
        const shares = { ...amount(p.vault, p.shares), valueUsd: 0 }
        const priced = underlying.priceUsd !== undefined
        out.push({
          type: 'Erc4626',
          chainId,
          protocol: deployment.vaults.find((v) => v.address === p.vault)?.protocol ?? 'Unknown',
          pool: p.vault,
          vault: token(p.vault),
          shares,
          ...perUnit(previewRedeem.valueUsd, shares, priced),
          underlying,
          previewRedeem,
          convertToAssets: toAmount(underlying, p.convertToAssets),
          valueUsd: previewRedeem.valueUsd,
        })
        break
      }
      case 'lido': {
        const stEth = deployment.lido?.stEth ?? p.token
        // Ether has 18 decimals on every chain with Lido, stored or not.
        const ether: DefiToken = wrappedNative
          ? { ...token(wrappedNative), decimals: token(wrappedNative).decimals ?? 18 }
          : { address: zeroAddress, decimals: 18 }
        const underlying: DefiToken =
          p.kind === 'steth'
            ? ether
            : {
                ...token(stEth),
                ...(ether.priceUsd === undefined ? {} : { priceUsd: ether.priceUsd }),
              }
        const holdings = toAmount(underlying, p.holdings)
        const balance = { ...amount(p.token, p.balance), valueUsd: 0 }
        out.push({
          type: 'Tokenized',
          tokenType: p.kind === 'steth' ? 'StETH' : 'WstETH',
          chainId,
          protocol: 'Lido',
          pool: stEth,
          token: token(p.token),
          balance,
          ...perUnit(holdings.valueUsd, balance, underlying.priceUsd !== undefined),
          underlying,
          holdings,
          lendingPool: stEth,
          valueUsd: holdings.valueUsd,
        })
        break
      }
      case 'uniswap_v4': {
        const range = nftRange(p)
        out.push({
          type: 'NftV4',
          chainId,
          protocol:
            deployment.v4Managers?.find((m) => m.positionManager === p.manager)?.protocol ??
            'UniswapV4',
          pool: p.poolId,
          poolManager: p.poolManager,
          salt: numberToHex(p.tokenId, { size: 32 }),
          hooks: p.hooks,
          token0: token(p.token0),
          token1: token(p.token1),
          positions: [range],
          valueUsd: rangeValue(range),
        })
        break
      }
      case 'aave': {
        const sign = p.kind === 'vdebt' ? -1n : 1n
        const underlying = token(p.underlying)
        const holdings = toAmount(underlying, sign * p.balance)
        const balance = { ...amount(p.token, sign * p.scaledBalance), valueUsd: 0 }
        out.push({
          type: 'Tokenized',
          tokenType: AAVE_TOKEN_TYPES[p.version][p.kind],
          chainId,
          protocol: `AaveV${p.version}`,
          pool: p.pool,
          token: token(p.token),
          balance,
          ...perUnit(holdings.valueUsd, balance, underlying.priceUsd !== undefined),
          underlying,
          holdings,
          lendingPool: p.pool,
          healthFactor: p.healthFactor === null ? null : wadToNumber(p.healthFactor),
          valueUsd: holdings.valueUsd,
        })
        break
      }
      default: {
        const never: never = p
        throw new Error(`Unknown position type ${(never as { type: string }).type}.`)
      }
    }
  }
  for (const group of pools.values()) {
    const first = group[0]!
    const ranges = [...group]
      .sort((a, b) => (a.tokenId < b.tokenId ? -1 : a.tokenId > b.tokenId ? 1 : 0))
      .map(nftRange)
    out.push({
      type: 'Nft',
      chainId,
      protocol:
        deployment.v3Managers.find((m) => m.address === first.manager)?.protocol ?? 'UniswapV3',
      pool: first.pool,
      token0: token(first.token0),
      token1: token(first.token1),
      positions: ranges,
      valueUsd: ranges.reduce((sum, r) => sum + rangeValue(r), 0),
    })
  }
  return out

  function nftRange(p: UniswapV3Position | UniswapV4Position): DefiNftRange {
    return {
      tokenId: p.tokenId,
      tickLower: p.tickLower,
      tickUpper: p.tickUpper,
      liquidity: p.liquidity,
      inRange: p.inRange,
      holdings0: amount(p.token0, p.amount0),
      holdings1: amount(p.token1, p.amount1),
      rewards0: amount(p.token0, p.fees0),
      rewards1: amount(p.token1, p.fees1),
    }
  }
}

/** A range's value: principal and rewards of both tokens. */
function rangeValue(r: DefiNftRange): number {
  return r.holdings0.valueUsd + r.holdings1.valueUsd + r.rewards0.valueUsd + r.rewards1.valueUsd
}

/** Answer order: `value_usd` descending, then chain id, type, pool address. */
export function compareDefiPositions(a: ValuedDefiPosition, b: ValuedDefiPosition): number {
  if (a.valueUsd !== b.valueUsd) return b.valueUsd - a.valueUsd
  if (a.chainId !== b.chainId) return a.chainId - b.chainId
  if (a.type !== b.type) return TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type)
  return a.pool < b.pool ? -1 : a.pool > b.pool ? 1 : 0
}

/** Value per whole unit held, when everything it is made of is priced. */
function perUnit(valueUsd: number, held: DefiAmount, priced: boolean) {
  return priced && held.units !== undefined && held.units !== 0
    ? { unitPriceUsd: valueUsd / held.units }
    : {}
}

/** An 18-decimal fixed-point number as a float (exact to 15 significant digits). */
function wadToNumber(wad: bigint): number {
  return Number(formatUnits(wad, 18))
}

function toAmount(token: DefiToken, raw: bigint): DefiAmount {
  if (token.decimals === undefined) return { raw, valueUsd: 0 }
  const units = Number(formatUnits(raw, token.decimals))
  return { raw, units, valueUsd: token.priceUsd === undefined ? 0 : units * token.priceUsd }
}
