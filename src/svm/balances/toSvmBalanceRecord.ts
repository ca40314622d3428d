import { formatUnits } from 'viem'
import type { SvmPrice } from '../prices/choosePoolPrice.ts'
import type { TokenFacts } from '../tokens/resolveTokenFacts.ts'

/** One row of `/beta/svm/balances` (interface.md "SVM balance record"). */
export type SvmBalanceRecord = {
  chain: string
  /** Mint address, or `native`. */
  address: string
  amount: string
  balance: string
  raw_balance: string
  value_usd?: number
  program_id: string | null
  decimals: number
  total_supply: string
  metadata_address?: string
  mint_authority?: string | null
  name?: string
  symbol?: string
  uri: string | null
  price_usd?: number
  liquidity_usd?: number
  pool_type: string | null
  pool_address: string | null
}

const NATIVE_DECIMALS = 9

function priceFields(amount: bigint, decimals: number, price: SvmPrice | undefined) {
  if (!price) return { pool_type: null, pool_address: null }
  return {
    price_usd: price.priceUsd,
    value_usd: Number(formatUnits(amount, decimals)) * price.priceUsd,
    ...(price.liquidityUsd !== undefined ? { liquidity_usd: price.liquidityUsd } : {}),
    pool_type: price.poolType ?? null,
    pool_address: price.poolAddress ?? null,
  }
}

/** The native asset's row (lamports; SOL on Solana, ETH on Eclipse, 9 decimals both). */
export function toNativeRecord({
  chain,
  lamports,
  supply,
  native,
  price,
}: {
  chain: string
  lamports: bigint
  supply: bigint
  native: { name: string; symbol: string }
  price: SvmPrice | undefined
}): SvmBalanceRecord {
  return {
    chain,
    address: 'native',
    amount: lamports.toString(),
    balance: formatUnits(lamports, NATIVE_DECIMALS),
    raw_balance: lamports.toString(),
    program_id: null,
    decimals: NATIVE_DECIMALS,
    total_supply: supply.toString(),
    name: native.name,
    symbol: native.symbol,
    uri: null,
    ...priceFields(lamports, NATIVE_DECIMALS, price),
  }
}

/** A token's row: the wallet's accounts of the mint summed. */
export function toTokenRecord({
  chain,
  amount,
  facts,
  price,
}: {
  chain: string
  amount: bigint
  facts: TokenFacts
  price: SvmPrice | undefined
}): SvmBalanceRecord {
  return {
    chain,
    address: facts.mint,
    amount: amount.toString(),
    balance: formatUnits(amount, facts.decimals),
    raw_balance: amount.toString(),
    program_id: facts.programId,
    decimals: facts.decimals,
    total_supply: facts.supply.toString(),
    ...(facts.metadataAddress ? { metadata_address: facts.metadataAddress } : {}),
    mint_authority: facts.mintAuthority,
    ...(facts.name !== undefined ? { name: facts.name } : {}),
    ...(facts.symbol !== undefined ? { symbol: facts.symbol } : {}),
    uri: facts.uri ?? null,
    ...priceFields(amount, facts.decimals, price),
  }
}
