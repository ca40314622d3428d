import { type Client, type Log, numberToHex } from 'viem'
import type { Address, Hex } from '../evm/types.ts'
import { BaseError } from '../internal/errors.ts'

export type QueuedTx = {
  from: Address
  /** Omitted for a deployment. */
  to?: Address
  data?: Hex
  value?: bigint
  /** Explicit, so nothing is estimated against a pending state that does not exist yet. */
  gas: bigint
  /** Names the transaction in errors. */
  label: string
}

export type MinedReceipt = {
  transactionHash: Hex
  blockNumber: Hex
  status: Hex
  contractAddress: Address | null
  logs: Pick<Log<Hex, number>, 'address' | 'topics' | 'data'>[]
}

export type TxQueue = {
  add(tx: QueuedTx): void
  readonly size: number
  /** Transactions mined so far. */
  readonly sent: number
  /**
   * Sends everything queued (explicit nonces, one JSON-RPC batch per block), mines with
   * `evm_mine` until the pool is empty and checks every receipt. Throws if one failed.
   */
  flush(): Promise<MinedReceipt[]>
}

/** Sends many transactions per block on an anvil node with automine off. */
export function createTxQueue({
  client,
  maxTxsPerBlock = 150,
  maxFeePerGas = 1_000_000_000_000n,
  maxPriorityFeePerGas = 1_000_000_000n,
}: {
  /** A viem client whose transport batches JSON-RPC requests. */
  client: Client
  maxTxsPerBlock?: number
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
}): TxQueue {
  const rpc = <T>(method: string, params: unknown[] = []) =>
    client.request<{ method: string; params: unknown[]; ReturnType: T }>({ method, params })
  const nonces = new Map<Address, number>()
  let queue: QueuedTx[] = []
  let sent = 0
  let blockGasBudget: bigint | undefined

  const flush = async (): Promise<MinedReceipt[]> => {
    if (queue.length === 0) return []
    const txs = queue
    queue = []
    const unknown = [...new Set(txs.map((tx) => tx.from))].filter((from) => !nonces.has(from))
    const counts = await Promise.all(
      unknown.map((from) => rpc<Hex>('eth_getTransactionCount', [from, 'pending'])),
    )
    for (const [i, from] of unknown.entries()) nonces.set(from, Number(counts[i]))
    if (blockGasBudget === undefined) {
      const block = await rpc<{ gasLimit: Hex }>('eth_getBlockByNumber', ['latest', false])
      // anvil packs blocks by declared gas; stay below so each chunk fits into one block.
      blockGasBudget = (BigInt(block.gasLimit) * 9n) / 10n
    }

    const hashes: Hex[] = []
    const labels = new Map<Hex, string>()
    let chunk: QueuedTx[] = []
    let chunkGas = 0n
    const sendChunk = async () => {
      const sentHashes = await Promise.all(
        chunk.map((tx) => {
          const nonce = nonces.get(tx.from)!
          nonces.set(tx.from, nonce + 1)
          return rpc<Hex>('eth_sendTransaction', [
            {
              from: tx.from,
              ...(tx.to ? { to: tx.to } : {}),
              ...(tx.data ? { data: tx.data } : {}),
              value: numberToHex(tx.value ?? 0n),
              gas: numberToHex(tx.gas),
              nonce: numberToHex(nonce),
              maxFeePerGas: numberToHex(maxFeePerGas),
              maxPriorityFeePerGas: numberToHex(maxPriorityFeePerGas),
            },
          ]).catch((cause: unknown) => {
            throw new BaseError(`Sending "${tx.label}" from ${tx.from} failed.`, { cause })
          })
        }),
      )
      sentHashes.forEach((hash, i) => {
        hashes.push(hash)
        labels.set(hash, chunk[i]!.label)
      })
      await rpc('evm_mine')
      chunk = []
      chunkGas = 0n
    }
    for (const tx of txs) {
      if (chunk.length >= maxTxsPerBlock || chunkGas + tx.gas > blockGasBudget) await sendChunk()
      chunk.push(tx)
      chunkGas += tx.gas
    }
    await sendChunk()
    // A chunk can still spill over when gas prices or limits differ from what we assumed.
    for (let i = 0; i < 50; i++) {
      const status = await rpc<{ pending: Hex; queued: Hex }>('txpool_status')
      if (Number(status.pending) === 0 && Number(status.queued) === 0) break
      await rpc('evm_mine')
    }

    const receipts = await Promise.all(
      hashes.map((hash) => rpc<MinedReceipt | null>('eth_getTransactionReceipt', [hash])),
    )
    const failed: string[] = []
    receipts.forEach((receipt, i) => {
      const hash = hashes[i]!
      if (!receipt) failed.push(`${labels.get(hash)} (${hash}): not mined`)
      else if (receipt.status !== '0x1') failed.push(`${labels.get(hash)} (${hash}): reverted`)
    })
    if (failed.length > 0)
      throw new BaseError(`${failed.length} of ${hashes.length} transactions failed.`, {
        details: failed.slice(0, 20).join('\n'),
      })
    sent += hashes.length
    return receipts as MinedReceipt[]
  }

  return {
    add: (tx) => {
      queue.push(tx)
    },
    get size() {
      return queue.length
    },
    get sent() {
      return sent
    },
    flush,
  }
}
