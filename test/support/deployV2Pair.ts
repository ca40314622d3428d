import { loadArtifact } from '../../src/dev/artifacts.ts'
import type { AnvilActions } from '../../src/dev/createAnvilActions.ts'
import type { Address } from '../../src/evm/types.ts'

const factoryAbi = loadArtifact('UniswapV2Factory').abi

/** A fresh Uniswap V2 factory (npm artifact) and its pair of two tokens, both lowercase. */
export async function deployV2Pair({
  chain,
  deployer,
  tokenA,
  tokenB,
}: {
  chain: AnvilActions
  deployer: Address
  tokenA: Address
  tokenB: Address
}): Promise<{ factory: Address; pair: Address }> {
  const factory = await chain.deploy({
    from: deployer,
    artifact: loadArtifact('UniswapV2Factory'),
    args: [deployer],
  })
  await chain.send({
    from: deployer,
    to: factory,
    abi: factoryAbi,
    functionName: 'createPair',
    args: [tokenA, tokenB],
  })
  const pair = await chain.call<Address>({
    to: factory,
    abi: factoryAbi,
    functionName: 'getPair',
    args: [tokenA, tokenB],
  })
  return { factory, pair: pair.toLowerCase() as Address }
}
