import type { Address } from '../evm/types.ts'
import type { TokenPriceTable } from '../store/schema.ts'
import type { StateChange } from '../store/stateTables.ts'
import type { PricedToken } from './createPriceRoutes.ts'

const HOUR = 3600

/**
 * State changes that take the stored prices to `next` for the tokens it names: changed and
 * new prices, deleted ones (undefined: a token whose route vanished), and the hour's price
 * point of every token whose price moved. Prices are compared as stored, relative to the
 * parent: a token whose USD price moved only with its parent's is left alone. Tokens `next`
 * does not name keep their price. Pure.
 */
export function diffPrices({
  chainId,
  previous,
  next,
  blockNumber,
  blockTime,
}: {
  chainId: number
  previous: ReadonlyMap<Address, TokenPriceTable>
  next: ReadonlyMap<Address, PricedToken | undefined>
  blockNumber: number
  blockTime: number
}): StateChange[] {
  const changes: StateChange[] = []
  const hour = Math.floor(blockTime / HOUR) * HOUR
  for (const [token, price] of next) {
    const old = previous.get(token)
    if (price === undefined) {
      if (old) changes.push({ table: 'token_prices', key: { chain_id: chainId, token }, row: null })
      continue
    }
    const moved = !old || old.parent !== price.parent || !same(old.price, price.price)
    if (!moved && old.pool === price.pool && same(old.pool_size, price.poolSize)) continue
    changes.push({
      table: 'token_prices',
      key: { chain_id: chainId, token },
      row: {
        chain_id: chainId,
        token,
        parent: price.parent,
        price: price.price,
        pool: price.pool,
        pool_size: price.poolSize,
        pool_size_usd: price.poolSizeUsd,
        block_number: blockNumber,
        block_time: blockTime,
      },
    })
    if (moved) {
      changes.push({
        table: 'token_price_hours',
        key: { chain_id: chainId, token, hour },
        row: {
          chain_id: chainId,
          token,
          hour,
          parent: price.parent,
          price: price.price,
          block_time: blockTime,
        },
      })
    }
  }
  return changes
}

/** Equal to within float noise (prices are recomputed from the same reserves). */
function same(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.abs(a) * 1e-12
}
