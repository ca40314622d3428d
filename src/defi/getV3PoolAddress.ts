import { encodeAbiParameters, getContractAddress, keccak256 } from 'viem'
import type { Address, Hex } from '../evm/types.ts'

/**
 * The CREATE2 address of a Uniswap V3 pool (`PoolAddress.computeAddress`): salt
 * keccak256(abi.encode(token0, token1, fee)) under the pool deployer (the factory for Uniswap;
 * forks may deploy from another contract and use another init code hash). Lowercase.
 */
export function getV3PoolAddress({
  poolDeployer,
  poolInitCodeHash,
  token0,
  token1,
  fee,
}: {
  poolDeployer: Address
  poolInitCodeHash: Hex
  /** Sorted below token1, as the position manager stores them. */
  token0: Address
  token1: Address
  fee: number
}): Address {
  const salt = keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }],
      [token0, token1, fee],
    ),
  )
  return getContractAddress({
    opcode: 'CREATE2',
    from: poolDeployer,
    salt,
    bytecodeHash: poolInitCodeHash,
  }).toLowerCase() as Address
}
