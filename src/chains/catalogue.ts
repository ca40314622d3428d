/**
 * The chain catalogue: every EVM chain Scry knows by id, with its API name, tags and the
 * endpoints it supports (spec/interface.md tables, names from spec/decisions.md). A chain is
 * served only when it is also enabled (an RPC source is configured). Operators add or override
 * entries through `catalogue` in the config file (see `resolveCatalogue`).
 */
export type ChainTag = 'default' | 'mainnet' | 'testnet' | 'devnet' | 'omni'

export const CHAIN_TAGS: readonly ChainTag[] = ['default', 'mainnet', 'testnet', 'devnet', 'omni']

export type ChainEndpoints = {
  balances: boolean
  activity: boolean
  transactions: boolean
  collectibles: boolean
  token_info: boolean
  token_holders: boolean
  defi_positions: boolean
}

export type ChainEndpoint = keyof ChainEndpoints

export const CHAIN_ENDPOINTS: readonly ChainEndpoint[] = [
  'balances',
  'activity',
  'transactions',
  'collectibles',
  'token_info',
  'token_holders',
  'defi_positions',
]

export type CatalogueChain = {
  chainId: number
  /** API name, e.g. `base`; lowercase letters, digits and `_`. */
  name: string
  tags: ChainTag[]
  endpoints: ChainEndpoints
}

export type SvmChain = { name: 'solana' | 'eclipse' }

export const SVM_CHAINS: readonly SvmChain[] = [{ name: 'solana' }, { name: 'eclipse' }]

const DM: ChainTag[] = ['default', 'mainnet']
const M: ChainTag[] = ['mainnet']
const T: ChainTag[] = ['testnet']
const DEV: ChainTag[] = ['devnet']
const OMNI: ChainTag[] = ['omni']
const NONE: ChainTag[] = []

// Per the chain detail table: holders are not served on these chains.
const NO_TOKEN_HOLDERS = new Set([2020, 4217])
// DeFi positions need protocol registries, which exist only for these chains.
const DEFI_POSITIONS = new Set([1, 10, 130, 137, 8453, 42161])

const CHAINS: readonly [chainId: number, name: string, tags: ChainTag[]][] = [
  [1, 'ethereum', DM],
  [10, 'optimism', DM],
  [14, 'flare', M],
  [30, 'rootstock', M],
  [56, 'bnb', DM],
  [88, 'viction', M],
  [100, 'gnosis', DM],
  [130, 'unichain', M],
  [137, 'polygon', DM],
  [143, 'monad', M],
  [146, 'sonic', M],
  [166, 'omni', OMNI],
  [185, 'mint', NONE],
  [196, 'xlayer', M],
  [204, 'opbnb', M],
  [232, 'lens', M],
  [239, 'tac', NONE],
  [250, 'fantom', M],
  [252, 'fraxtal', M],
  [288, 'boba', M],
  [324, 'zksync', DM],
  [360, 'shape', M],
  [480, 'world', M],
  [690, 'redstone', M],
  [747, 'flow', M],
  [988, 'stable', NONE],
  [999, 'hyper_evm', DM],
  [1088, 'metis', NONE],
  [1101, 'zkevm', M],
  [1111, 'wemix', NONE],
  [1135, 'lisk', M],
  [1329, 'sei', M],
  [1514, 'story', M],
  [1868, 'soneium', M],
  [1923, 'swellchain', M],
  [2020, 'ronin', M],
  [2741, 'abstract', M],
  [2911, 'hychain', NONE],
  [3338, 'peaq', M],
  [4153, 'rise', M],
  [4217, 'tempo_mainnet', NONE],
  [4326, 'megaeth', M],
  [5000, 'mantle', M],
  [5031, 'somnia', M],
  [5112, 'ham', NONE],
  [5330, 'superseed', M],
  [7560, 'cyber', M],
  [8217, 'kaia', M],
  [8333, 'b3', M],
  [8453, 'base', DM],
  [9745, 'plasma', M],
  [10143, 'monad_testnet', T],
  [16601, 'og_galileo', NONE],
  [31612, 'mezo', M],
  [33139, 'ape_chain', M],
  [33979, 'funki', NONE],
  [34443, 'mode', M],
  [42161, 'arbitrum', DM],
  [42170, 'arbitrum_nova', DM],
  [42220, 'celo', DM],
  [42431, 'tempo', NONE],
  [43111, 'hemi', M],
  [43113, 'avalanche_fuji', T],
  [43114, 'avalanche_c', DM],
  [50104, 'sophon', M],
  [55244, 'superposition', M],
  [57073, 'ink', M],
  [59144, 'linea', M],
  [60808, 'bob', M],
  [70700, 'proof_of_play_apex', NONE],
  [70701, 'proof_of_play_boss', NONE],
  [80002, 'polygon_amoy', NONE],
  [80094, 'berachain', M],
  [81457, 'blast', DM],
  [84532, 'base_sepolia', T],
  [98866, 'plume', M],
  [167000, 'taiko', NONE],
  [534352, 'scroll', M],
  [543210, 'zero_network', M],
  [660279, 'xai', M],
  [747474, 'katana', NONE],
  [984122, 'forma', NONE],
  [7777777, 'zora', DM],
  [11155111, 'sepolia', T],
  // Testnet whose API name the public API does not show.
  [11155931, 'chain_11155931', T],
  [21000000, 'corn', NONE],
  [420120000, 'interop_alpha_0', DEV],
  [420120001, 'interop_alpha_1', DEV],
  [666666666, 'degen', M],
  [728126428, 'tron', M],
  [888888888, 'ancient8', M],
  [1380012617, 'rari', M],
]

export const CHAIN_CATALOGUE: readonly CatalogueChain[] = CHAINS.map(([chainId, name, tags]) => ({
  chainId,
  name,
  tags: [...tags],
  endpoints: {
    balances: true,
    activity: true,
    transactions: true,
    collectibles: true,
    token_info: true,
    token_holders: !NO_TOKEN_HOLDERS.has(chainId),
    defi_positions: DEFI_POSITIONS.has(chainId),
  },
}))
