import type { SvmChainConfig } from '../../src/config/types.ts'
import { buildSvmWorld, type SvmWorld } from '../../src/svm/dev/buildSvmWorld.ts'
import { type Surfpool, startSurfpool } from '../../src/svm/dev/startSurfpool.ts'
import { SVM_DEFAULTS, type SvmChainName } from '../../src/svm/svmDefaults.ts'

export type SvmTestChain = { node: Surfpool; world: SvmWorld; config: SvmChainConfig }

/** A Surfpool node per SVM chain (offline), each with the demo world built on it. */
export async function createSvmTestWorld(
  chains: readonly SvmChainName[] = ['solana', 'eclipse'],
): Promise<{ chains: Map<SvmChainName, SvmTestChain>; stop(): void }> {
  const out = new Map<SvmChainName, SvmTestChain>()
  try {
    for (const name of chains) {
      const node = startSurfpool()
      out.set(name, {
        node,
        world: await buildSvmWorld({
          chain: name,
          rpcUrl: node.rpcUrl,
          wsUrl: node.wsUrl,
          payerSecretKey: node.payerSecretKey,
        }),
        config: {
          name,
          rpc: [node.rpcUrl],
          usdcMint: SVM_DEFAULTS[name].usdcMint,
          dexPrograms: SVM_DEFAULTS[name].dexPrograms,
          // Surfpool refuses JSON-RPC batches
          rpcBatchSize: 1,
        },
      })
    }
  } catch (error) {
    for (const chain of out.values()) chain.node.stop()
    throw error
  }
  return {
    chains: out,
    stop() {
      for (const chain of out.values()) chain.node.stop()
    },
  }
}

/** One JSON-RPC call straight to a node, answer parsed with `parse` (default JSON.parse). */
export async function callNode<T = any>(
  rpcUrl: string,
  method: string,
  params: unknown[],
  parse: (text: string) => unknown = JSON.parse,
): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const answer = parse(await response.text()) as { result?: T; error?: { message: string } }
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`)
  return answer.result as T
}
