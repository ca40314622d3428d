import type { Logger } from '../../internal/logger.ts'
import type { Store } from '../../store/createStore.ts'
import type { NamedAbi } from './builtinAbis.ts'
import type { AbiRegistry } from './createAbiRegistry.ts'
import { validateAbi } from './parseAbiJson.ts'

/** Reads the operator ABIs (`abis` table); a row that no longer validates is skipped. */
export async function loadOperatorAbis({
  store,
  logger,
}: {
  store: Store
  logger?: Logger
}): Promise<NamedAbi[]> {
  const rows = await store.db
    .selectFrom('abis')
    .select(['name', 'abi'])
    .orderBy('created_at')
    .orderBy('name')
    .execute()
  const out: NamedAbi[] = []
  for (const row of rows) {
    try {
      out.push({ name: row.name, abi: validateAbi(JSON.parse(row.abi)) })
    } catch {
      logger?.warn({ abi: row.name }, 'Skipping an invalid stored ABI')
    }
  }
  return out
}

/**
 * Loads the operator ABIs into the registry now and again every `intervalMs` (default 60 s),
 * so that `scry abi add` reaches running servers without a restart. Failures keep the
 * previous set. Resolves after the first load; stops when `signal` aborts.
 */
export async function watchOperatorAbis({
  store,
  registry,
  logger,
  intervalMs = 60_000,
  signal,
}: {
  store: Store
  registry: AbiRegistry
  logger?: Logger
  intervalMs?: number
  signal: AbortSignal
}): Promise<void> {
  const reload = async () => {
    try {
      registry.setOperatorAbis(await loadOperatorAbis({ store, ...(logger ? { logger } : {}) }))
    } catch (error) {
      logger?.warn({ err: error }, 'Could not load operator ABIs; keeping the previous set')
    }
  }
  await reload()
  if (signal.aborted) return
  const timer = setInterval(() => void reload(), intervalMs)
  timer.unref()
  signal.addEventListener('abort', () => clearInterval(timer), { once: true })
}
