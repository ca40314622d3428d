import type { DexFactory } from '../evm/poolTypes.ts'
import type { Address } from '../evm/types.ts'

/** A chain's pricing setup: USD anchors, the wrapped native token, trusted DEX factories. */
export type DexDeployment = {
  /** Canonical USDC (= 1.00 USD); config may name more anchors. */
  usdc: Address[]
  /** The native asset is priced as this token. */
  wrappedNative: Address | null
  dexFactories: DexFactory[]
}

const v2 = (address: string): DexFactory => ({
  type: 'uniswap_v2',
  address: address.toLowerCase() as Address,
})
const v3 = (address: string): DexFactory => ({
  type: 'uniswap_v3',
  address: address.toLowerCase() as Address,
})
const addr = (address: string) => address.toLowerCase() as Address

const OP_STACK_WETH = addr('0x4200000000000000000000000000000000000006')
const UNISWAP_V3 = v3('0x1F98431c8aD98523631AE4a59f267346ea31F984')
const PANCAKE_V3 = v3('0x0BFbCF9fa4f9C56B0F40a671Ad40E0805A091865')
const SUSHI_V2_L2 = v2('0xc35DADB65012eC5796536bD9864eD8773aBc74C4')

/**
 * Well-known deployments on the catalogue's main chains (Uniswap V2/V3 and the large forks
 * with the same ABI), as published by each project. Operators add or replace factories per
 * chain (`dexFactories`), anchors (`usdc`) and the wrapped native token in config.
 */
export const DEX_DEPLOYMENTS: ReadonlyMap<number, DexDeployment> = new Map([
  [
    1,
    {
      usdc: [addr('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48')],
      wrappedNative: addr('0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'),
      dexFactories: [
        v2('0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f'), // Uniswap V2
        v2('0xC0AEe478e3658e2610c5F7A4A2E1777cE9e4f2Ac'), // SushiSwap
        UNISWAP_V3,
        PANCAKE_V3,
      ],
    },
  ],
  [
    10,
    {
      usdc: [addr('0x0b2c639c533813f4aa9d7837caf62653d097ff85')],
      wrappedNative: OP_STACK_WETH,
      dexFactories: [v2('0x0c3c1c532F1e39EdF36BE9Fe0bE1410313E074Bf'), UNISWAP_V3],
    },
  ],
  [
    56,
    {
      usdc: [addr('0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d')],
      wrappedNative: addr('0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c'),
      dexFactories: [
        v2('0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73'), // PancakeSwap V2
        PANCAKE_V3,
        v3('0xdB1d10011AD0Ff90774D0C6Bb92e5C5c8b4461F7'), // Uniswap V3
      ],
    },
  ],
  [
    130,
    {
      usdc: [addr('0x078d782b760474a361dda0af3839290b0ef57ad6')],
      wrappedNative: OP_STACK_WETH,
      dexFactories: [
        v2('0x1f98400000000000000000000000000000000002'),
        v3('0x1f98400000000000000000000000000000000003'),
      ],
    },
  ],
  [
    137,
    {
      usdc: [addr('0x3c499c542cef5e3811e1192ce70d8cc03d5c3359')],
      wrappedNative: addr('0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270'),
      dexFactories: [
        v2('0x9e5A52f57b3038F1B8EeE45F28b3C1967e22799C'), // Uniswap V2
        v2('0x5757371414417b8C6CAad45bAeF941aBc7d3Ab32'), // QuickSwap
        SUSHI_V2_L2,
        UNISWAP_V3,
      ],
    },
  ],
  [
    8453,
    {
      usdc: [addr('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913')],
      wrappedNative: OP_STACK_WETH,
      dexFactories: [
        v2('0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6'), // Uniswap V2
        v3('0x33128a8fC17869897dcE68Ed026d694621f6FDfD'), // Uniswap V3
        PANCAKE_V3,
      ],
    },
  ],
  [
    42161,
    {
      usdc: [addr('0xaf88d065e77c8cc2239327c5edb3a432268e5831')],
      wrappedNative: addr('0x82af49447d8a07e3bd95bd0d56f35241523fbab1'),
      dexFactories: [
        v2('0xf1D7CC64Fb4452F05c498126312eBE29f30Fbcf9'), // Uniswap V2
        SUSHI_V2_L2,
        UNISWAP_V3,
        PANCAKE_V3,
      ],
    },
  ],
  [
    43114,
    {
      usdc: [addr('0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e')],
      wrappedNative: addr('0xb31f66aa3c1e785363f0875a1b74e27b85fd66c7'),
      dexFactories: [
        v2('0x9Ad6C38BE94206cA50bb0d90783181662f0Cfa10'), // Trader Joe V1
        v3('0x740b1c1de25031C31FF4fC9A62f554A55cdC1baD'), // Uniswap V3
      ],
    },
  ],
])

/** The shipped setup of a chain; a chain without one has no prices until configured. */
export function dexDeployment(chainId: number): DexDeployment {
  return DEX_DEPLOYMENTS.get(chainId) ?? { usdc: [], wrappedNative: null, dexFactories: [] }
}
