import {
  type Abi,
  decodeFunctionResult,
  encodeDeployData,
  encodeFunctionData,
  numberToHex,
} from 'viem'
import type { Address, Hex } from '../evm/types.ts'
import { BaseError } from '../internal/errors.ts'
import { sleep } from '../utils/sleep.ts'

export type AnvilActions = {
  request<T>(method: string, params?: readonly unknown[]): Promise<T>
  /** Sends from an unlocked account (automine) and checks the receipt; throws on revert. */
  send(args: {
    from: Address
    to: Address
    abi: Abi
    functionName: string
    args?: readonly unknown[]
    value?: bigint
  }): Promise<{ blockNumber: bigint; blockHash: Hex }>
  /** Deploys and returns the lowercase address. */
  deploy(args: {
    from: Address
    artifact: { abi: Abi; bytecode: Hex }
    args?: readonly unknown[]
  }): Promise<Address>
  /**
   * `eth_call` from `from` at `blockHash` (EIP-1898) or latest, decoded; a revert throws.
   * Reads a contract's own answer, e.g. what a state-changing function would return.
   */
  call<T = unknown>(args: {
    from?: Address
    to: Address
    abi: Abi
    functionName: string
    args?: readonly unknown[]
    blockHash?: Hex
  }): Promise<T>
  /** The latest block's number and hash. */
  head(): Promise<{ blockNumber: bigint; blockHash: Hex }>
  /** Runs `fn` inside `evm_snapshot`/`evm_revert`: nothing it mines stays. */
  rollback<T>(fn: () => Promise<T>): Promise<T>
}

/**
 * Small helpers for tests that drive an automining anvil through its unlocked dev accounts:
 * one transaction at a time, explicit gas (estimates on Uniswap's oracles run short).
 */
export function createAnvilActions({
  rpcUrl,
  gas = 6_000_000n,
}: {
  rpcUrl: string
  gas?: bigint
}): AnvilActions {
  let id = 0
  const request = async <T>(method: string, params: readonly unknown[] = []): Promise<T> => {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    })
    const body = (await res.json()) as { result?: T; error?: { message: string; data?: unknown } }
    if (body.error)
      throw new BaseError(
        `${method} failed: ${body.error.message}`,
        body.error.data === undefined ? {} : { details: String(body.error.data) },
      )
    return body.result as T
  }
  const transact = async (label: string, tx: Record<string, unknown>) => {
    const hash = await request<Hex>('eth_sendTransaction', [{ ...tx, gas: numberToHex(gas) }])
    type Receipt = {
      status: Hex
      blockNumber: Hex
      blockHash: Hex
      contractAddress: Address | null
    }
    // Automine answers once the block is mined, but the receipt can lag by a moment.
    let receipt: Receipt | null = null
    for (let attempt = 0; receipt === null; attempt++) {
      if (attempt > 0) await sleep(Math.min(attempt * 5, 50))
      if (attempt > 400) throw new BaseError(`${label}: no receipt for ${hash}.`)
      receipt = await request<Receipt | null>('eth_getTransactionReceipt', [hash])
    }
    if (receipt.status !== '0x1') {
      // Replayed on the parent block (automine: one transaction per block) for the reason.
      const parent = numberToHex(BigInt(receipt.blockNumber) - 1n)
      const reason = await request('eth_call', [{ ...tx, gas: numberToHex(gas) }, parent]).then(
        () => 'no revert on replay',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      )
      throw new BaseError(`${label} reverted (${hash}).`, { details: reason })
    }
    return receipt
  }
  return {
    request,
    async send({ from, to, abi, functionName, args = [], value }) {
      const data = encodeFunctionData({ abi, functionName, args })
      const tx = { from, to, data, ...(value === undefined ? {} : { value: numberToHex(value) }) }
      const receipt = await transact(`${functionName} from ${from}`, tx)
      return { blockNumber: BigInt(receipt.blockNumber), blockHash: receipt.blockHash }
    },
    async deploy({ from, artifact, args = [] }) {
      const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args })
      const receipt = await transact('deployment', { from, data })
      return receipt.contractAddress!.toLowerCase() as Address
    },
    async call<T>({
      from,
      to,
      abi,
      functionName,
      args = [],
      blockHash,
    }: Parameters<AnvilActions['call']>[0]) {
      const data = encodeFunctionData({ abi, functionName, args })
      const result = await request<Hex>('eth_call', [
        { ...(from ? { from } : {}), to, data },
        blockHash ? { blockHash } : 'latest',
      ])
      return decodeFunctionResult({ abi, functionName, data: result }) as T
    },
    async head() {
      const block = await request<{ number: Hex; hash: Hex }>('eth_getBlockByNumber', [
        'latest',
        false,
      ])
      return { blockNumber: BigInt(block.number), blockHash: block.hash }
    },
    async rollback(fn) {
      const snapshot = await request<Hex>('evm_snapshot')
      try {
        return await fn()
      } finally {
        await request('evm_revert', [snapshot])
      }
    },
  }
}
