import { expect, test } from 'vitest'
import { getV3PoolAddress } from './getV3PoolAddress.ts'

test('default', () => {
  // Mainnet USDC/WETH 0.05 % and 0.3 % pools of the Uniswap V3 factory.
  const uniswap = {
    poolDeployer: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
    poolInitCodeHash: '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54',
    token0: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    token1: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  } as const
  expect(getV3PoolAddress({ ...uniswap, fee: 500 })).toBe(
    '0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640',
  )
  expect(getV3PoolAddress({ ...uniswap, fee: 3000 })).toBe(
    '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8',
  )
})
