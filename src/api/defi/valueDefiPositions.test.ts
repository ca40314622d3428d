import { expect, test } from 'vitest'
import type { DefiDeployment } from '../../defi/defiDeployments.ts'
import type { UniswapV3Position } from '../../defi/types.ts'
import type { Address } from '../../evm/types.ts'
import { type DefiToken, valueDefiPositions } from './valueDefiPositions.ts'

const a = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const [USDC, TKA, PAIR, POOL, NPM, FACTORY, UNPRICED] = [1, 2, 3, 4, 5, 6, 7].map(a) as Address[]
const tokens = new Map<Address, DefiToken>([
  [USDC!, { address: USDC!, symbol: 'USDC', decimals: 6, priceUsd: 1 }],
  [TKA!, { address: TKA!, symbol: 'TKA', decimals: 18, priceUsd: 2 }],
  [PAIR!, { address: PAIR!, decimals: 18 }],
  [UNPRICED!, { address: UNPRICED!, decimals: 0 }],
])
const deployment: DefiDeployment = {
  v3Managers: [{ address: NPM!, poolDeployer: FACTORY!, poolInitCodeHash: '0x', protocol: 'V3' }],
  v2Protocols: { [FACTORY!]: 'ForkV2' },
  vaults: [],
}
const nft = (tokenId: bigint, more: Partial<UniswapV3Position> = {}): UniswapV3Position => ({
  type: 'uniswap_v3',
  owner: a(9),
  manager: NPM!,
  tokenId,
  pool: POOL!,
  token0: TKA!,
  token1: USDC!,
  fee: 3000,
  tickLower: -60,
  tickUpper: 60,
  liquidity: 10n,
  inRange: true,
  amount0: 10n ** 18n,
  amount1: 3_000_000n,
  fees0: 0n,
  fees1: 500_000n,
  ...more,
})

test('default', () => {
  const valued = valueDefiPositions({
    chainId: 1,
    deployment,
    tokens,
    positions: [
      nft(7n),
      nft(3n, { inRange: false, amount1: 0n, fees1: 0n }),
      {
        type: 'uniswap_v2',
        owner: a(9),
        pair: PAIR!,
        factory: FACTORY!,
        token0: USDC!,
        token1: UNPRICED!,
        lpBalance: 5n * 10n ** 17n,
        totalSupply: 10n ** 18n,
        amount0: 1_500_000n,
        amount1: 99n,
      },
    ],
  })
  expect(valued.map((p) => [p.type, p.protocol, p.pool, p.valueUsd])).toEqual([
    ['UniswapV2', 'ForkV2', PAIR, 1.5],
    // 2 × 2 TKA + 3.5 USDC (principal and rewards)
    ['Nft', 'V3', POOL, 7.5],
  ])
  const merged = valued[1]!
  if (merged.type !== 'Nft') throw new Error('not an Nft entry')
  expect(merged.positions.map((r) => [r.tokenId, r.inRange, r.rewards1.units])).toEqual([
    [3n, false, 0],
    [7n, true, 0.5],
  ])
})

test('behavior: Lido stETH and wstETH are valued at what they redeem for, as ETH', () => {
  const [WETH, STETH, WSTETH] = [20, 21, 22].map(a) as Address[]
  const held = { type: 'lido', owner: a(9), balance: 10n ** 18n } as const
  const valued = valueDefiPositions({
    chainId: 1,
    deployment: { ...deployment, lido: { stEth: STETH!, wstEth: WSTETH! } },
    // stETH's own market price is not used; WETH's decimals are not stored.
    tokens: new Map<Address, DefiToken>([
      [WETH!, { address: WETH!, priceUsd: 3000 }],
      [STETH!, { address: STETH!, decimals: 18, priceUsd: 1 }],
      [WSTETH!, { address: WSTETH!, decimals: 18 }],
    ]),
    wrappedNative: WETH!,
    positions: [
      { ...held, token: STETH!, kind: 'steth', holdings: 2n * 10n ** 18n },
      { ...held, token: WSTETH!, kind: 'wsteth', holdings: 12n * 10n ** 17n },
    ],
  })
  expect(
    valued.map((p) =>
      p.type === 'Tokenized'
        ? [
            p.tokenType,
            p.pool,
            p.lendingPool,
            p.underlying.address,
            p.holdings.units,
            p.valueUsd,
            p.unitPriceUsd,
          ]
        : [],
    ),
  ).toEqual([
    ['StETH', STETH, STETH, WETH, 2, 6000, 6000],
    ['WstETH', STETH, STETH, STETH, 1.2, 3600, 3600],
  ])
})

test.each([3, 2] as const)(
  'behavior: Aave V%i supply counts positive, debt negative, both at the asset price',
  (version) => {
    const [A_USDC, DEBT_TKA, AAVE_POOL] = [30, 31, 32].map(a) as Address[]
    const held = {
      type: 'aave',
      version,
      owner: a(9),
      pool: AAVE_POOL!,
      healthFactor: 15n * 10n ** 17n,
    } as const
    const valued = valueDefiPositions({
      chainId: 1,
      deployment: { ...deployment, [`aaveV${version}Pools`]: [AAVE_POOL!] },
      tokens: new Map<Address, DefiToken>([
        ...tokens,
        [A_USDC!, { address: A_USDC!, decimals: 6 }],
        [DEBT_TKA!, { address: DEBT_TKA!, decimals: 18 }],
      ]),
      positions: [
        {
          ...held,
          token: A_USDC!,
          kind: 'atoken',
          underlying: USDC!,
          scaledBalance: 900_000_000n,
          balance: 1_000_000_000n,
        },
        {
          ...held,
          token: DEBT_TKA!,
          kind: 'vdebt',
          underlying: TKA!,
          scaledBalance: 10n ** 20n,
          balance: 125n * 10n ** 18n,
        },
      ],
    })
    expect(
      valued.map((p) =>
        p.type === 'Tokenized'
          ? [
              p.tokenType,
              p.protocol,
              p.lendingPool,
              p.balance.raw,
              p.holdings.raw,
              p.holdings.units,
              p.valueUsd,
              p.unitPriceUsd,
            ]
          : [],
      ),
    ).toEqual([
      [
        `AtokenV${version}`,
        `AaveV${version}`,
        AAVE_POOL,
        900_000_000n,
        1_000_000_000n,
        1000,
        1000,
        1000 / 900,
      ],
      [
        `AaveV${version}VariableDebt`,
        `AaveV${version}`,
        AAVE_POOL,
        -(10n ** 20n),
        -125n * 10n ** 18n,
        -125,
        -250,
        2.5,
      ],
    ])
    expect(valued.every((p) => p.type === 'Tokenized' && p.healthFactor === 1.5)).toBe(true)
  },
)
