/** What a stablecoin tracks. */
export type StablecoinPeg = 'USD' | 'EUR'

export type StablecoinEntry = {
  chainId: number
  /** Token contract, or `native` for a chain whose native asset is itself a stablecoin. */
  address: `0x${string}` | 'native'
  symbol: string
  peg: StablecoinPeg
  /** A share of a savings vault or a staked stable (sDAI, sUSDe…): its price drifts up. */
  yieldBearing?: boolean
}

/** An operator's entry (config `chains.<id>.stablecoins`): what it is, not what it tracks. */
export type StablecoinAddition = Pick<StablecoinEntry, 'chainId' | 'address'> &
  Partial<StablecoinEntry>

export type StablecoinRegistry = {
  /** Every entry, addresses lowercase, one per (chain, address). */
  entries: readonly StablecoinAddition[]
  has(args: { chainId: number; address: string }): boolean
  /** Token addresses on `chainId`, lowercase, ascending (`native` is not among them). */
  tokens(chainId: number): readonly `0x${string}`[]
  /** The chain's native asset is a stablecoin (xDAI). */
  hasNative(chainId: number): boolean
}

type Row = [
  symbol: string,
  address: `0x${string}` | 'native',
  peg?: StablecoinPeg,
  yields?: 'yield',
]

const chain = (chainId: number, rows: Row[]): StablecoinEntry[] =>
  rows.map(([symbol, address, peg = 'USD', yields]) => ({
    chainId,
    address,
    symbol,
    peg,
    ...(yields ? { yieldBearing: true } : {}),
  }))

// Ethena's USDe and sUSDe are LayerZero OFTs with one address on every chain they reach.
const USDE_OFT = '0x5d3a1ff2b6bab83b63cd9ad0787074081a52ef34'
const SUSDE_OFT = '0x211cc4dd073734da055fbf44a2b4667d5e5fe5d2'
// Bridged DAI shares one address on Optimism and Arbitrum.
const DAI_OP_ARB = '0xda10009cbd5d07dd0cecc66161fc93d7c9000da1'

/**
 * Stablecoins of the main chains, shipped as data (spec/decisions.md "Stablecoins"):
 * USD- and EUR-pegged coins and yield-bearing stables, mainnet contract addresses.
 * Operators add tokens per chain with the `stablecoins` setting (`stablecoinRegistry(extra)`).
 */
export const STABLECOINS: readonly StablecoinEntry[] = [
  ...chain(1, [
    ['USDC', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'],
    ['USDT', '0xdac17f958d2ee523a2206206994597c13d831ec7'],
    ['DAI', '0x6b175474e89094c44da98b954eedeac495271d0f'],
    ['USDS', '0xdc035d45d973e3ec169d2276ddab16f1e407384f'],
    ['USDe', '0x4c9edd5852cd905f086c759e8383e09bff1e68b3'],
    ['FRAX', '0x853d955acef822db058eb8505911ed77f175b99e'],
    ['frxUSD', '0xcacd6fd266af91b8aed52accc382b4e165586e29'],
    ['PYUSD', '0x6c3ea9036406852006290770bedfcaba0e23a0e8'],
    ['FDUSD', '0xc5f0f7b66764f6ec8c8dff7ba683102295e16409'],
    ['TUSD', '0x0000000000085d4780b73119b644ae5ecd22b376'],
    ['USDP', '0x8e870d67f660d95d5be530380d0ec0bd388289e1'],
    ['GHO', '0x40d16fc0246ad3160ccc09b8d0d3a2cd28ae6c2f'],
    ['crvUSD', '0xf939e0a03fb07f59a73314e73794be0e57ac1b4e'],
    ['LUSD', '0x5f98805a4e8be255a32880fdec7f6728c6568ba0'],
    ['RLUSD', '0x8292bb45bf1ee4d140127049757c2e0ff06317ed'],
    ['USD1', '0x8d0d000ee44948fc98c9b98a4fa4921476f08b0d'],
    ['EURC', '0x1abaea1f7c830bd89acc67ec4af516284b1bc33c', 'EUR'],
    ['EURS', '0xdb25f211ab05b1c97d595516f45794528a807ad8', 'EUR'],
    ['sDAI', '0x83f20f44975d03b1b09e64809b757c47f942beea', 'USD', 'yield'],
    ['sUSDS', '0xa3931d71877c0e7a3148cb7eb4463524fec27fbd', 'USD', 'yield'],
    ['sUSDe', '0x9d39a5de30e57443bff2a8307a4256c8797a3497', 'USD', 'yield'],
    ['sFRAX', '0xa663b02cf0a4b149d2ad41910cb81e23e1c41c32', 'USD', 'yield'],
  ]),
  ...chain(10, [
    ['USDC', '0x0b2c639c533813f4aa9d7837caf62653d097ff85'],
    ['USDC.e', '0x7f5c764cbc14f9669b88837ca1490cca17c31607'],
    ['USDT', '0x94b008aa00579c1307b0ef2c499ad98a8ce58e58'],
    ['DAI', DAI_OP_ARB],
    ['USDe', USDE_OFT],
    ['FRAX', '0x2e3d870790dc77a83dd1d18184acc7439a53f475'],
    ['LUSD', '0xc40f949f8a4e094d1b49a23ea9241d289b7b2819'],
    ['sUSD', '0x8c6f28f2f1a3c87f0f938b96d27520d9751ec8d9'],
    ['sUSDe', SUSDE_OFT, 'USD', 'yield'],
  ]),
  ...chain(56, [
    ['USDT', '0x55d398326f99059ff775485246999027b3197955'],
    ['USDC', '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d'],
    ['BUSD', '0xe9e7cea3dedca5984780bafc599bd69add087d56'],
    ['DAI', '0x1af3f329e8be154074d8769d1ffa4ee058b1dbc3'],
    ['FDUSD', '0xc5f0f7b66764f6ec8c8dff7ba683102295e16409'],
    ['USD1', '0x8d0d000ee44948fc98c9b98a4fa4921476f08b0d'],
    ['USDe', USDE_OFT],
    ['sUSDe', SUSDE_OFT, 'USD', 'yield'],
  ]),
  ...chain(100, [
    ['XDAI', 'native'],
    ['WXDAI', '0xe91d153e0b41518a2ce8dd3d7944fa863463a97d'],
    ['USDC', '0xddafbb505ad214d7b80b1f830fccc89b60fb7a83'],
    ['USDT', '0x4ecaba5870353805a9f068101a40e0f32ed605c6'],
    ['EURe', '0xcb444e90d8198415266c6a2724b7900fb12fc56e', 'EUR'],
    ['sDAI', '0xaf204776c7245bf4147c2612bf6e5972ee483701', 'USD', 'yield'],
  ]),
  ...chain(137, [
    ['USDC', '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359'],
    ['USDC.e', '0x2791bca1f2de4661ed88a30c99a7a9449aa84174'],
    ['USDT', '0xc2132d05d31c914a87c6611c10748aeb04b58e8f'],
    ['DAI', '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063'],
    ['FRAX', '0x45c32fa6df82ead1e2ef74d17b76547eddfaff89'],
  ]),
  ...chain(8453, [
    ['USDC', '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'],
    ['USDbC', '0xd9aaec86b65d86f6a7b5b1b0c42ffa531710b6ca'],
    ['USDT', '0xfde4c96c8593536e31f229ea8f37b2ada2699bb2'],
    ['DAI', '0x50c5725949a6f0c72e6c4a641f24049a917db0cb'],
    ['USDS', '0x820c137fa70c8691f0e44dc420a5e53c168921dc'],
    ['USDe', USDE_OFT],
    ['EURC', '0x60a3e35cc302bfa44cb288bc5a4f316fdb1adb42', 'EUR'],
    ['sUSDS', '0x5875eee11cf8398102fdad704c9e96607675467a', 'USD', 'yield'],
    ['sUSDe', SUSDE_OFT, 'USD', 'yield'],
  ]),
  ...chain(42161, [
    ['USDC', '0xaf88d065e77c8cc2239327c5edb3a432268e5831'],
    ['USDC.e', '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8'],
    ['USDT', '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9'],
    ['DAI', DAI_OP_ARB],
    ['USDS', '0x6491c05a82219b8d1479057361ff1654749b876b'],
    ['USDe', USDE_OFT],
    ['FRAX', '0x17fc002b466eec40dae837fc4be5c67993ddbd6f'],
    ['PYUSD', '0x46850ad61c2b7d64d08c9c754f45254596696984'],
    ['GHO', '0x7dff72693f6a4149b17e7c6314655f6a9f7c8b33'],
    ['LUSD', '0x93b346b6bc2548da6a1e7d98e9a421b42541425b'],
    ['sUSDS', '0xddb46999f8891663a8f2828d25298f70416d7610', 'USD', 'yield'],
    ['sUSDe', SUSDE_OFT, 'USD', 'yield'],
  ]),
  ...chain(43114, [
    ['USDC', '0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e'],
    ['USDC.e', '0xa7d7079b0fead91f3e65f86e8915cb59c1a4c664'],
    ['USDt', '0x9702230a8ea53601f5cd2dc00fdbc13d4df4a8c7'],
    ['USDT.e', '0xc7198437980c041c805a1edcba50c1ce5db95118'],
    ['DAI.e', '0xd586e7f844cea2f87f50152665bcbc2c279d8d70'],
    ['FRAX', '0xd24c2ad096400b6fbcd2ad8b24e7acbc21a1da64'],
    ['EURC', '0xc891eb4cbdeff6e073e859e987815ed1505c2acd', 'EUR'],
  ]),
]

/**
 * The shipped registry plus `extra` entries (config, or the dev world's tokens, which are not
 * at mainnet addresses). Addresses are matched lowercase; duplicates collapse, the later
 * entry winning.
 */
export function stablecoinRegistry(extra: readonly StablecoinAddition[] = []): StablecoinRegistry {
  const byKey = new Map<string, StablecoinAddition>()
  for (const entry of [...STABLECOINS, ...extra]) {
    const address = entry.address.toLowerCase() as StablecoinEntry['address']
    byKey.set(`${entry.chainId}:${address}`, { ...entry, address })
  }
  const entries = [...byKey.values()]
  const tokensByChain = new Map<number, `0x${string}`[]>()
  const nativeChains = new Set<number>()
  for (const entry of entries) {
    if (entry.address === 'native') {
      nativeChains.add(entry.chainId)
      continue
    }
    const list = tokensByChain.get(entry.chainId) ?? []
    list.push(entry.address)
    tokensByChain.set(entry.chainId, list)
  }
  for (const list of tokensByChain.values()) list.sort()
  return {
    entries,
    has: ({ chainId, address }) => byKey.has(`${chainId}:${address.toLowerCase()}`),
    tokens: (chainId) => tokensByChain.get(chainId) ?? [],
    hasNative: (chainId) => nativeChains.has(chainId),
  }
}
