import { createChainIndexer } from '../../src/indexer/createChainIndexer.ts'
import { silentLogger } from '../../src/internal/logger.ts'
import { createTestStore } from './createTestStore.ts'
import { digestStore } from './digestStore.ts'
import { runIndexer, testChainConfig } from './testChain.ts'

/**
 * The digest of a clean single-process run (one indexer, a fresh SQLite store) of the chain
 * up to `block`: what a deployment that survived faults must hold exactly.
 */
export async function digestCleanRun({
  rpcUrl,
  chainId,
  batchSize,
  block,
}: {
  rpcUrl: string
  chainId: number
  batchSize: number
  block: number
}): Promise<Awaited<ReturnType<typeof digestStore>>> {
  const clean = await createTestStore('sqlite')
  try {
    const chain = testChainConfig({ chainId, rpc: [rpcUrl], batchSize, traces: 'parity' })
    const run = runIndexer({
      indexer: createChainIndexer({ chain, store: clean.store, logger: silentLogger() }),
      store: clean.store,
    })
    await run.synced({ block, timeoutMs: 120_000 })
    await run.stop()
    return await digestStore(clean.store)
  } finally {
    await clean.drop()
  }
}
