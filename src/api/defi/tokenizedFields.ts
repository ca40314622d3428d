import { Type } from 'typebox'

/** `Tokenized` subtypes: Lido's, and Aave V3 and V2 supply and variable debt. */
export const TokenizedTypes = Type.Union([
  Type.Literal('StETH'),
  Type.Literal('WstETH'),
  Type.Literal('AtokenV3'),
  Type.Literal('AaveV3VariableDebt'),
  Type.Literal('AtokenV2'),
  Type.Literal('AaveV2VariableDebt'),
])
/** Aave positions: the owner's health factor in the pool (getUserAccountData), null: no debt. */
export const HealthFactor = Type.Union([Type.Number(), Type.Null()], {
  description: "Aave: the owner's health factor in this pool; null without debt",
})
