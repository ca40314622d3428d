import { Type } from 'typebox'
import type { DefiNftRange } from './valueDefiPositions.ts'

/** Schema properties of `toNftRangeBase`. */
export const NFT_RANGE_BASE_FIELDS = {
  tick_lower: Type.Integer(),
  tick_upper: Type.Integer(),
  token_id: Type.String({ description: 'Hex' }),
  liquidity: Type.String({ description: 'The NFT’s liquidity (integer)' }),
  in_range: Type.Boolean({ description: 'tickLower ≤ the pool’s tick < tickUpper' }),
}

/** The fields of an NFT range both shapes name alike: ticks, hex token id, liquidity, in range. */
export function toNftRangeBase(r: DefiNftRange) {
  return {
    tick_lower: r.tickLower,
    tick_upper: r.tickUpper,
    token_id: `0x${r.tokenId.toString(16)}`,
    liquidity: r.liquidity.toString(),
    in_range: r.inRange,
  }
}
