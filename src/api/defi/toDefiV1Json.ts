import { type Static, Type } from 'typebox'
import { WarningSchema } from '../params.ts'
import type { DefiAnswer } from './combineDefiChains.ts'
import { HealthFactor, TokenizedTypes } from './tokenizedFields.ts'
import { NFT_RANGE_BASE_FIELDS, toNftRangeBase } from './toNftRangeBase.ts'
import type { DefiAmount, DefiToken, ValuedDefiPosition } from './valueDefiPositions.ts'

const Raw = Type.String({ description: 'Raw integer amount (decimal digits)' })
const Units = Type.Optional(Type.Number({ description: 'Amount in whole tokens' }))
const Price = Type.Optional(Type.Number({ description: 'Current USD price; absent: unpriced' }))
const TokenRef = {
  address: Type.String(),
  name: Type.Optional(Type.String()),
  symbol: Type.Optional(Type.String()),
}
const TokenWithDecimals = Type.Object({ ...TokenRef, decimals: Type.Optional(Type.Integer()) })
const AmmToken = Type.Object({
  ...TokenWithDecimals.properties,
  price_usd: Price,
  holdings: Units,
  holdings_raw: Raw,
})
const Common = {
  chain: Type.String(),
  chain_id: Type.Integer(),
  protocol: Type.String(),
  pool: Type.String({
    description: 'The pair, the V3 pool, the V4 pool id, the vault, Lido stETH or the Aave Pool',
  }),
  value_usd: Type.Number(),
  logo: Type.Null(),
}
const NftSide = Type.Object({
  price_usd: Price,
  holdings: Units,
  holdings_raw: Raw,
  rewards: Type.Optional(Type.Number({ description: 'What collect pays: fees and tokensOwed' })),
  rewards_raw: Raw,
})

const Erc4626 = Type.Object({
  type: Type.Literal('Erc4626'),
  ...Common,
  token: Type.Object(TokenRef),
  underlying_token: Type.Object({
    ...TokenRef,
    decimals: Type.Optional(Type.Integer()),
    holdings: Units,
    holdings_raw: Raw,
  }),
  balance: Type.Number({ description: 'Shares in whole units' }),
  balance_raw: Raw,
  price_usd: Type.Optional(Type.Number({ description: 'USD per share' })),
  preview_redeem: Units,
  preview_redeem_raw: Raw,
  convert_to_assets: Units,
  convert_to_assets_raw: Raw,
})
const Tokenized = Type.Object({
  type: Type.Literal('Tokenized'),
  ...Common,
  token_type: TokenizedTypes,
  token: Type.Object(TokenRef),
  underlying_token: Type.Object({
    address: Type.String({
      description: 'ETH as the wrapped native token for stETH; stETH for wstETH; Aave: the asset',
    }),
    holdings: Type.Optional(
      Type.Number({ description: 'Worth in the underlying (Aave balanceOf); debt negative' }),
    ),
    holdings_raw: Raw,
  }),
  lending_pool: Type.String({ description: 'Lido: the stETH contract; Aave: the Pool' }),
  balance: Type.Number({
    description:
      'Scaled balance in whole units (stETH shares, Aave scaledBalanceOf); debt negative',
  }),
  balance_raw: Raw,
  price_usd: Type.Optional(Type.Number({ description: 'USD per token of the balance' })),
  health_factor: Type.Optional(HealthFactor),
})
const UniswapV2 = Type.Object({
  type: Type.Literal('UniswapV2'),
  ...Common,
  token0: AmmToken,
  token1: AmmToken,
  lp_balance: Type.String({ description: 'LP tokens, raw, hex (as Sim)' }),
  balance: Units,
  balance_raw: Raw,
  price_usd: Type.Optional(Type.Number({ description: 'USD per LP token' })),
})
const Nft = Type.Object({
  type: Type.Literal('Nft'),
  ...Common,
  token0: TokenWithDecimals,
  token1: TokenWithDecimals,
  positions: Type.Array(
    Type.Object({
      ...NFT_RANGE_BASE_FIELDS,
      token0: NftSide,
      token1: NftSide,
    }),
  ),
})

const NftV4 = Type.Object({
  type: Type.Literal('NftV4'),
  ...Common,
  pool_id: Type.String({ description: 'The V4 pool id (keccak256 of its key); also `pool`' }),
  pool_manager: Type.String(),
  salt: Type.String({ description: 'The position’s salt: its token id as 32 bytes, hex' }),
  hooks: Type.String({ description: 'The pool’s hooks contract (address zero: none)' }),
  token0: TokenWithDecimals,
  token1: TokenWithDecimals,
  positions: Type.Array(
    Type.Object({
      ...NFT_RANGE_BASE_FIELDS,
      token0: NftSide,
      token1: NftSide,
    }),
  ),
})

/** `GET /v1/evm/defi/positions/{address}`: Sim's current shape, plus raw amounts. */
export const DefiV1Response = Type.Object({
  positions: Type.Array(Type.Union([Erc4626, Tokenized, UniswapV2, Nft, NftV4])),
  aggregations: Type.Object({
    total_value_usd: Type.Number(),
    total_by_chain: Type.Record(Type.String(), Type.Number()),
  }),
  warnings: Type.Optional(Type.Array(WarningSchema)),
})
type DefiV1Json = Static<typeof DefiV1Response>
type PositionJson = DefiV1Json['positions'][number]

const units = (a: DefiAmount, key: string) => (a.units === undefined ? {} : { [key]: a.units })
const ref = (t: DefiToken) => ({
  address: t.address,
  ...(t.name === undefined ? {} : { name: t.name }),
  ...(t.symbol === undefined ? {} : { symbol: t.symbol }),
})
const withDecimals = (t: DefiToken) => ({
  ...ref(t),
  ...(t.decimals === undefined ? {} : { decimals: t.decimals }),
})
const optKey = (key: string, value: number | undefined) =>
  value === undefined ? {} : { [key]: value }
const price = (t: DefiToken) => optKey('price_usd', t.priceUsd)

export function toDefiV1Json({
  answer,
  chainName,
}: {
  answer: DefiAnswer
  chainName: (chainId: number) => string
}): DefiV1Json {
  return {
    positions: answer.positions.map((p) => toPosition(p, chainName(p.chainId))),
    aggregations: { total_value_usd: answer.totalUsd, total_by_chain: answer.totalByChain },
    ...(answer.warnings.length > 0 ? { warnings: answer.warnings } : {}),
  }
}

function toPosition(p: ValuedDefiPosition, chain: string): PositionJson {
  const common = {
    chain,
    chain_id: p.chainId,
    protocol: p.protocol,
    pool: p.pool,
    value_usd: p.valueUsd,
    logo: null,
  }
  switch (p.type) {
    case 'Erc4626':
      return {
        type: 'Erc4626',
        ...common,
        token: ref(p.vault),
        underlying_token: {
          ...withDecimals(p.underlying),
          ...units(p.previewRedeem, 'holdings'),
          holdings_raw: p.previewRedeem.raw.toString(),
        },
        balance: p.shares.units ?? 0,
        balance_raw: p.shares.raw.toString(),
        ...optKey('price_usd', p.unitPriceUsd),
        ...units(p.previewRedeem, 'preview_redeem'),
        preview_redeem_raw: p.previewRedeem.raw.toString(),
        ...units(p.convertToAssets, 'convert_to_assets'),
        convert_to_assets_raw: p.convertToAssets.raw.toString(),
      }
    case 'Tokenized':
      return {
        type: 'Tokenized',
        ...common,
        token_type: p.tokenType,
        token: ref(p.token),
        underlying_token: {
          address: p.underlying.address,
          ...units(p.holdings, 'holdings'),
          holdings_raw: p.holdings.raw.toString(),
        },
        lending_pool: p.lendingPool,
        balance: p.balance.units ?? 0,
        balance_raw: p.balance.raw.toString(),
        ...optKey('price_usd', p.unitPriceUsd),
        ...(p.healthFactor === undefined ? {} : { health_factor: p.healthFactor }),
      }
    case 'UniswapV2':
      return {
        type: 'UniswapV2',
        ...common,
        token0: ammToken(p.token0, p.holdings0),
        token1: ammToken(p.token1, p.holdings1),
        lp_balance: `0x${p.lpBalance.raw.toString(16)}`,
        ...units(p.lpBalance, 'balance'),
        balance_raw: p.lpBalance.raw.toString(),
        ...optKey('price_usd', p.unitPriceUsd),
      }
    case 'Nft':
      return {
        type: 'Nft',
        ...common,
        token0: withDecimals(p.token0),
        token1: withDecimals(p.token1),
        positions: p.positions.map((r) => ({
          ...toNftRangeBase(r),
          token0: nftSide(p.token0, r.holdings0, r.rewards0),
          token1: nftSide(p.token1, r.holdings1, r.rewards1),
        })),
      }
    case 'NftV4':
      return {
        type: 'NftV4',
        ...common,
        pool_id: p.pool,
        pool_manager: p.poolManager,
        salt: p.salt,
        hooks: p.hooks,
        token0: withDecimals(p.token0),
        token1: withDecimals(p.token1),
        positions: p.positions.map((r) => ({
          ...toNftRangeBase(r),
          token0: nftSide(p.token0, r.holdings0, r.rewards0),
          token1: nftSide(p.token1, r.holdings1, r.rewards1),
        })),
      }
    default: {
      const never: never = p
      throw new Error(`Unknown position type ${(never as { type: string }).type}.`)
    }
  }
}

function ammToken(token: DefiToken, holdings: DefiAmount) {
  return {
    ...withDecimals(token),
    ...price(token),
    ...units(holdings, 'holdings'),
    holdings_raw: holdings.raw.toString(),
  }
}

function nftSide(token: DefiToken, holdings: DefiAmount, rewards: DefiAmount) {
  return {
    ...price(token),
    ...units(holdings, 'holdings'),
    holdings_raw: holdings.raw.toString(),
    ...units(rewards, 'rewards'),
    rewards_raw: rewards.raw.toString(),
  }
}
