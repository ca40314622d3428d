import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../evm/types.ts'
import type { TokenStandard } from '../store/schema.ts'
import type { StateChange } from '../store/stateTables.ts'
import { probeDefiTokens } from './probeDefiTokens.ts'

/**
 * A batch's new ERC20 tokens that are vault shares or Aave tokens, as the `defi_tokens` rows
 * the batch writes (undone with it on a reorg). Their first round (`DEFI_PROBE_CALLS`) was
 * asked with their metadata (`readBatchState`'s `newTokenCalls`); only tokens whose answers
 * name addresses cost a second (`probeDefiTokens`), at the batch's last block.
 */
export async function probeNewTokens({
  rpc,
  chainId,
  blockNumber,
  blockHash,
  newTokens,
  signal,
}: {
  rpc: RpcClient
  chainId: number
  blockNumber: bigint
  blockHash?: Hex | undefined
  newTokens: ReadonlyMap<
    Address,
    { standard: TokenStandard; decimals: number | undefined; answers: readonly (Hex | undefined)[] }
  >
  signal?: AbortSignal | undefined
}): Promise<StateChange[]> {
  const tokens = [...newTokens]
    .filter(([, t]) => t.standard === 'erc20' && t.answers.length > 0)
    .map(([token, t]) => ({ token, decimals: t.decimals, answers: t.answers }))
  const found = await probeDefiTokens({ rpc, blockNumber, blockHash, tokens, signal })
  const block_number = Number(blockNumber)
  return [...found].map(([address, { kind, underlying, pool }]) => ({
    table: 'defi_tokens',
    key: { chain_id: chainId, address },
    row: { chain_id: chainId, address, kind, underlying, pool, block_number },
  }))
}
