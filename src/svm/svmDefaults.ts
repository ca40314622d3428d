import type { PoolType } from './pools/poolTypes.ts'

export const SVM_CHAIN_NAMES = ['solana', 'eclipse'] as const
export type SvmChainName = (typeof SVM_CHAIN_NAMES)[number]

export type SvmChainDefaults = {
  /** The USD anchor (= 1.00). */
  usdcMint: string
  /** DEX programs whose pools price tokens, by pool layout. */
  dexPrograms: Partial<Record<PoolType, string>>
  /** The native asset's name and symbol (9 decimals on both chains). */
  native: { name: string; symbol: string }
}

const ORCA_WHIRLPOOL = 'whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc'

/** Mainnet defaults shipped with Scry; config overrides them per chain. */
export const SVM_DEFAULTS: Record<SvmChainName, SvmChainDefaults> = {
  solana: {
    usdcMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    dexPrograms: {
      raydium_amm_v4: '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8',
      raydium_cpmm: 'CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C',
      raydium_clmm: 'CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK',
      orca_whirlpool: ORCA_WHIRLPOOL,
    },
    native: { name: 'Solana', symbol: 'SOL' },
  },
  eclipse: {
    // USDC bridged by Hyperlane, the USDC that Eclipse's Orca pools quote against.
    usdcMint: 'AKEWE7Bgh87GPp171b4cJPSSZfmZwQ3KaqYqXoKLNAEE',
    // Orca runs Whirlpools on Eclipse under the same program id; Raydium is not deployed there.
    dexPrograms: { orca_whirlpool: ORCA_WHIRLPOOL },
    native: { name: 'Ethereum', symbol: 'ETH' },
  },
}
