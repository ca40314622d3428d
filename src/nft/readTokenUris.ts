import { decodeAbiParameters, encodeFunctionData, type Hex } from 'viem'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { NftStandard } from '../store/schema.ts'

const ABI = [
  {
    type: 'function',
    name: 'tokenURI',
    stateMutability: 'view',
    inputs: [{ name: 'tokenId', type: 'uint256' }],
    outputs: [{ name: '', type: 'string' }],
  },
  {
    type: 'function',
    name: 'uri',
    stateMutability: 'view',
    inputs: [{ name: 'id', type: 'uint256' }],
    outputs: [{ name: '', type: 'string' }],
  },
] as const

export type TokenUriResult = { ok: true; uri: string } | { ok: false; error: string }

/**
 * `tokenURI(id)` (ERC721) or `uri(id)` (ERC1155) of many tokens at the latest block, in one
 * batch. A revert, an empty or undecodable answer or one longer than `maxLength` is that
 * item's error; transport failures throw after the client's retries.
 */
export async function readTokenUris({
  rpc,
  tokens,
  maxLength,
  signal,
}: {
  rpc: RpcClient
  tokens: readonly { contract: string; standard: NftStandard; tokenId: bigint }[]
  maxLength: number
  signal?: AbortSignal
}): Promise<TokenUriResult[]> {
  if (tokens.length === 0) return []
  const results = await rpc.batch<Hex>(
    tokens.map((t) => ({
      method: 'eth_call',
      params: [
        {
          to: t.contract,
          data: encodeFunctionData({
            abi: ABI,
            functionName: t.standard === 'erc1155' ? 'uri' : 'tokenURI',
            args: [t.tokenId],
          }),
        },
        'latest',
      ],
    })),
    signal ? { signal } : {},
  )
  return results.map((r, i) => {
    const fn = tokens[i]?.standard === 'erc1155' ? 'uri' : 'tokenURI'
    if (!r.ok) return { ok: false, error: `${fn} reverted.` }
    const data = r.result
    if (typeof data !== 'string' || !/^0x[0-9a-fA-F]*$/.test(data) || data.length < 130) {
      return { ok: false, error: `${fn} returned no string.` }
    }
    // Hex is two characters a byte; the string's bytes follow the offset and length words.
    if (data.length > 2 + 128 + maxLength * 2 + 64) {
      return { ok: false, error: `${fn} returned more than ${maxLength} bytes.` }
    }
    try {
      const [uri] = decodeAbiParameters([{ type: 'string' }], data as Hex)
      if (uri.trim() === '') return { ok: false, error: `${fn} returned an empty string.` }
      return { ok: true, uri }
    } catch {
      return { ok: false, error: `${fn} returned no string.` }
    }
  })
}
