/** A chain's native asset, as the balances `native` row shows it. */
export type NativeCurrency = { symbol: string; name: string; decimals: number }

const ETH: NativeCurrency = { symbol: 'ETH', name: 'Ether', decimals: 18 }

const coin = (symbol: string, name: string, decimals = 18): NativeCurrency => ({
  symbol,
  name,
  decimals,
})

const BNB = coin('BNB', 'BNB')
const AVAX = coin('AVAX', 'Avalanche')
const POL = coin('POL', 'POL')
const MON = coin('MON', 'Monad')

/**
 * Native assets of the catalogue's chains that do not pay gas in ETH. Chains missing here
 * (Ethereum, its rollups and most L2s) use ETH with 18 decimals (`nativeCurrency`).
 */
export const NATIVE_CURRENCIES: ReadonlyMap<number, NativeCurrency> = new Map([
  [14, coin('FLR', 'Flare')],
  [30, coin('RBTC', 'Rootstock Smart Bitcoin')],
  [56, BNB],
  [88, coin('VIC', 'Viction')],
  [100, coin('XDAI', 'xDAI')],
  [137, POL],
  [143, MON],
  [146, coin('S', 'Sonic')],
  [166, coin('OMNI', 'Omni')],
  [196, coin('OKB', 'OKB')],
  [204, BNB],
  [232, coin('GHO', 'GHO')],
  [239, coin('TAC', 'TAC')],
  [250, coin('FTM', 'Fantom')],
  [252, coin('FRAX', 'Frax')],
  [747, coin('FLOW', 'Flow')],
  [988, coin('USDT0', 'USDT0')],
  [999, coin('HYPE', 'Hype')],
  [1088, coin('METIS', 'Metis')],
  [1111, coin('WEMIX', 'WEMIX')],
  [1329, coin('SEI', 'Sei')],
  [1514, coin('IP', 'IP')],
  [2020, coin('RON', 'Ronin')],
  [2911, coin('TOPIA', 'Topia')],
  [3338, coin('PEAQ', 'peaq')],
  [5000, coin('MNT', 'Mantle')],
  [5031, coin('SOMI', 'Somnia')],
  [8217, coin('KAIA', 'Kaia')],
  [9745, coin('XPL', 'Plasma')],
  [10143, MON],
  [16601, coin('OG', '0G')],
  [31612, coin('BTC', 'Bitcoin')],
  [33139, coin('APE', 'ApeCoin')],
  [42220, coin('CELO', 'Celo')],
  [43113, AVAX],
  [43114, AVAX],
  [50104, coin('SOPH', 'Sophon')],
  [80002, POL],
  [80094, coin('BERA', 'Berachain')],
  [98866, coin('PLUME', 'Plume')],
  [660279, coin('XAI', 'Xai')],
  [984122, coin('TIA', 'Celestia')],
  [21000000, coin('BTCN', 'Bitcorn')],
  [666666666, coin('DEGEN', 'Degen')],
  // Tron's JSON-RPC reports balances in sun (10^-6 TRX).
  [728126428, coin('TRX', 'Tron', 6)],
])

/** The native asset of `chainId`; ETH (18 decimals) unless the chain is listed otherwise. */
export function nativeCurrency(chainId: number): NativeCurrency {
  return NATIVE_CURRENCIES.get(chainId) ?? ETH
}
