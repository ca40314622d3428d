import { encodeFunctionData } from 'viem'
import { encodeAddressCall } from '../abi/encodeAddressCall.ts'
import { BALANCE_OF_SELECTOR, erc20Abi } from '../abis.ts'
import type { Address } from '../types.ts'
import type { ContractCall } from './readAtBlock.ts'

const TOTAL_SUPPLY = encodeFunctionData({ abi: erc20Abi, functionName: 'totalSupply' })

/**
 * The reads of a batch's state that `readBatchState` and `prefetchBatchReads` both make: built
 * in one place, so that a prefetched answer is found by its `callKey`.
 */
export const balanceOfCall = (token: Address, holder: Address): ContractCall => ({
  to: token,
  data: encodeAddressCall(BALANCE_OF_SELECTOR, holder),
})

export const totalSupplyCall = (token: Address): ContractCall => ({ to: token, data: TOTAL_SUPPLY })
