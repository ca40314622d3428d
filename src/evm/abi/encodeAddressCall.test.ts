import { encodeFunctionData, getAddress, parseAbi, toFunctionSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import { erc20Abi } from '../abis.ts'
import type { Address } from '../types.ts'
import { encodeAddressCall } from './encodeAddressCall.ts'

const permit2 = parseAbi([
  'function allowance(address user, address token, address spender) view returns (uint160, uint48, uint48)',
])

describe('encodeAddressCall', () => {
  it('encodes as viem does, whatever the case of the addresses', () => {
    // Checksummed (mixed case), as viem accepts it.
    const owner: Address = getAddress('0xabcdef0123456789abcdef0123456789abcdef01')
    const spender: Address = '0x0000000000000000000000000000000000000001'
    const token: Address = '0xffffffffffffffffffffffffffffffffffffffff'
    expect(encodeAddressCall(toFunctionSelector('balanceOf(address)'), owner)).toBe(
      encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner] }),
    )
    expect(
      encodeAddressCall(toFunctionSelector('allowance(address,address)'), owner, spender),
    ).toBe(encodeFunctionData({ abi: erc20Abi, functionName: 'allowance', args: [owner, spender] }))
    expect(
      encodeAddressCall(
        toFunctionSelector('allowance(address,address,address)'),
        owner,
        token,
        spender,
      ),
    ).toBe(
      encodeFunctionData({
        abi: permit2,
        functionName: 'allowance',
        args: [owner, token, spender],
      }),
    )
  })
})
