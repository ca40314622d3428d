import { type Static, type TSchema, Type } from 'typebox'
import { WarningSchema } from '../params.ts'
import type { DefiAnswer } from './combineDefiChains.ts'
import { HealthFactor, TokenizedTypes } from './tokenizedFields.ts'
import { NFT_RANGE_BASE_FIELDS, toNftRangeBase } from './toNftRangeBase.ts'
import type { DefiAmount, DefiToken, ValuedDefiPosition } from './valueDefiPositions.ts'

const Raw = Type.String({ description: 'Raw integer amount (decimal digits)' })
const Num = Type.Optional(Type.Number())
const Str = Type.Optional(Type.String())

/** `<prefix>`, `<prefix>_name`, `_symbol`, `_decimals`: a token as the flat shape names it. */
const tokenFields = (prefix: string, extra: Record<string, TSchema> = {}) => ({
  [prefix]: Type.String(),
  [`${prefix}_name`]: Str,
  [`${prefix}_symbol`]: Str,
  [`${prefix}_decimals`]: Type.Optional(Type.Integer()),
  ...extra,
})
const Common = {
  chain_id: Type.Integer(),
  protocol: Type.String(),
  pool: Type.String({ description: 'The pair, the V3 pool, the vault or Lido stETH' }),
  usd_value: Type.Number(),
  logo: Type.Null(),
}
const NftSide = (p: string) => ({
  [`${p}_price`]: Num,
  [`${p}_holdings`]: Num,
  [`${p}_holdings_raw`]: Raw,
  [`${p}_rewards`]: Num,
  [`${p}_rewards_raw`]: Raw,
})

const Erc4626 = Type.Object({
  type: Type.Literal('Erc4626'),
  ...Common,
  ...tokenFields('token'),
  calculated_balance: Type.Number({ description: 'Shares in whole units' }),
  balance_raw: Raw,
  price_in_usd: Type.Optional(Type.Number({ description: 'USD per share' })),
  ...tokenFields('underlying_token', { underlying_token_price: Num }),
  holdings: Num,
  holdings_raw: Raw,
  preview_redeem: Num,
  preview_redeem_raw: Raw,
  convert_to_assets: Num,
  convert_to_assets_raw: Raw,
})
const Tokenized = Type.Object({
  type: Type.Literal('Tokenized'),
  ...Common,
  token_type: TokenizedTypes,
  ...tokenFields('token'),
  calculated_balance: Type.Number({
    description:
      'Scaled balance in whole units (stETH shares, Aave scaledBalanceOf); debt negative',
  }),
  balance_raw: Raw,
  price_in_usd: Type.Optional(Type.Number({ description: 'USD per token of the balance' })),
  underlying_token: Type.String(),
  underlying_token_price: Num,
  holdings: Num,
  holdings_raw: Raw,
  lending_pool: Type.String({ description: 'Lido: the stETH contract; Aave: the Pool' }),
  health_factor: Type.Optional(HealthFactor),
})
const UniswapV2 = Type.Object({
  type: Type.Literal('UniswapV2'),
  ...Common,
  ...tokenFields('token0', { token0_price: Num, token0_holdings: Num, token0_holdings_raw: Raw }),
  ...tokenFields('token1', { token1_price: Num, token1_holdings: Num, token1_holdings_raw: Raw }),
  lp_balance: Type.String({ description: 'LP tokens, raw, hex' }),
  calculated_balance: Num,
  balance_raw: Raw,
  price_in_usd: Type.Optional(Type.Number({ description: 'USD per LP token' })),
})
const Nft = Type.Object({
  type: Type.Literal('Nft'),
  ...Common,
  ...tokenFields('token0'),
  ...tokenFields('token1'),
  positions: Type.Array(
    Type.Object({
      ...NFT_RANGE_BASE_FIELDS,
      ...NftSide('token0'),
      ...NftSide('token1'),
    }),
  ),
})
const NftV4 = Type.Object({
  type: Type.Literal('NftV4'),
  ...Common,
  pool_id: Type.String(),
  pool_manager: Type.String(),
  salt: Type.String({ description: 'The token id as 32 bytes, hex' }),
  hooks: Type.String(),
  ...tokenFields('token0'),
  ...tokenFields('token1'),
  positions: Type.Array(
    Type.Object({
      ...NFT_RANGE_BASE_FIELDS,
      ...NftSide('token0'),
      ...NftSide('token1'),
    }),
  ),
})

/** `GET /beta/evm/defi/positions/{address}`: the flat shape of interface.md, plus raw amounts. */
export const DefiBetaResponse = Type.Object({
  wallet_address: Type.String(),
  positions: Type.Array(Type.Union([Erc4626, Tokenized, UniswapV2, Nft, NftV4])),
  aggregations: Type.Object({
    total_usd_value: Type.Number(),
    total_by_chain: Type.Record(Type.String(), Type.Number()),
  }),
  warnings: Type.Optional(Type.Array(WarningSchema)),
})
type DefiBetaJson = Static<typeof DefiBetaResponse>
type Flat = Record<string, unknown>

const opt = (key: string, value: unknown) => (value === undefined ? {} : { [key]: value })
const token = (prefix: string, t: DefiToken): Flat => ({
  [prefix]: t.address,
  ...opt(`${prefix}_name`, t.name),
  ...opt(`${prefix}_symbol`, t.symbol),
  ...opt(`${prefix}_decimals`, t.decimals),
})
const amount = (key: string, a: DefiAmount): Flat => ({
  ...opt(key, a.units),
  [`${key}_raw`]: a.raw.toString(),
})

export function toDefiBetaJson({
  answer,
  wallet,
}: {
  answer: DefiAnswer
  wallet: string
}): DefiBetaJson {
  return {
    wallet_address: wallet,
    positions: answer.positions.map(toPosition) as DefiBetaJson['positions'],
    aggregations: { total_usd_value: answer.totalUsd, total_by_chain: answer.totalByChain },
    ...(answer.warnings.length > 0 ? { warnings: answer.warnings } : {}),
  }
}

function toPosition(p: ValuedDefiPosition): Flat {
  const common = {
    type: p.type,
    chain_id: p.chainId,
    protocol: p.protocol,
    pool: p.pool,
    usd_value: p.valueUsd,
    logo: null,
  }
  switch (p.type) {
    case 'Erc4626':
      return {
        ...common,
        ...token('token', p.vault),
        calculated_balance: p.shares.units ?? 0,
        balance_raw: p.shares.raw.toString(),
        ...opt('price_in_usd', p.unitPriceUsd),
        ...token('underlying_token', p.underlying),
        ...opt('underlying_token_price', p.underlying.priceUsd),
        ...amount('holdings', p.previewRedeem),
        ...amount('preview_redeem', p.previewRedeem),
        ...amount('convert_to_assets', p.convertToAssets),
      }
    case 'Tokenized':
      return {
        ...common,
        token_type: p.tokenType,
        ...token('token', p.token),
        calculated_balance: p.balance.units ?? 0,
        balance_raw: p.balance.raw.toString(),
        ...opt('price_in_usd', p.unitPriceUsd),
        underlying_token: p.underlying.address,
        ...opt('underlying_token_price', p.underlying.priceUsd),
        ...amount('holdings', p.holdings),
        lending_pool: p.lendingPool,
        ...(p.healthFactor === undefined ? {} : { health_factor: p.healthFactor }),
      }
    case 'UniswapV2':
      return {
        ...common,
        ...token('token0', p.token0),
        ...opt('token0_price', p.token0.priceUsd),
        ...amount('token0_holdings', p.holdings0),
        ...token('token1', p.token1),
        ...opt('token1_price', p.token1.priceUsd),
        ...amount('token1_holdings', p.holdings1),
        lp_balance: `0x${p.lpBalance.raw.toString(16)}`,
        ...opt('calculated_balance', p.lpBalance.units),
        balance_raw: p.lpBalance.raw.toString(),
        ...opt('price_in_usd', p.unitPriceUsd),
      }
    case 'Nft':
      return { ...common, ...nftFields(p) }
    case 'NftV4':
      return {
        ...common,
        pool_id: p.pool,
        pool_manager: p.poolManager,
        salt: p.salt,
        hooks: p.hooks,
        ...nftFields(p),
      }
    default: {
      const never: never = p
      throw new Error(`Unknown position type ${(never as { type: string }).type}.`)
    }
  }
}

/** Both NFT shapes' tokens and ranges, flat. */
function nftFields(p: Extract<ValuedDefiPosition, { type: 'Nft' | 'NftV4' }>): Flat {
  return {
    ...token('token0', p.token0),
    ...token('token1', p.token1),
    positions: p.positions.map((r) => ({
      ...toNftRangeBase(r),
      ...opt('token0_price', p.token0.priceUsd),
      ...amount('token0_holdings', r.holdings0),
      ...amount('token0_rewards', r.rewards0),
      ...opt('token1_price', p.token1.priceUsd),
      ...amount('token1_holdings', r.holdings1),
      ...amount('token1_rewards', r.rewards1),
    })),
  }
}
