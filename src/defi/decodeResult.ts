import {
  type Abi,
  type ContractFunctionName,
  type DecodeFunctionResultReturnType,
  decodeFunctionResult,
} from 'viem'
import type { Hex } from '../evm/types.ts'

/** Decodes an `eth_call` result, or `undefined` when the call failed or the data does not fit. */
export function decodeResult<
  const abi extends Abi,
  functionName extends ContractFunctionName<abi, 'view'>,
>({
  abi,
  functionName,
  data,
}: {
  abi: abi
  functionName: functionName
  data: Hex | undefined
}): DecodeFunctionResultReturnType<abi, functionName> | undefined {
  if (data === undefined || data === '0x') return undefined
  try {
    return decodeFunctionResult({
      abi,
      functionName,
      data,
    } as never) as DecodeFunctionResultReturnType<abi, functionName>
  } catch {
    return undefined
  }
}
