import { setMaxListeners } from 'node:events'
import type { World } from '../../dev/buildWorld.ts'
import { buildWorld } from '../../dev/buildWorld.ts'
import { deployWorldDefi, type WorldDefi } from '../../dev/deployWorldDefi.ts'
import { type Anvil, startAnvil } from '../../dev/startAnvil.ts'
import { BaseError } from '../../internal/errors.ts'
import type { Logger } from '../../internal/logger.ts'
import { formatDuration } from '../formatProgress.ts'

export type LocalChain = {
  chainId: number
  name: string
  /** `base (8453)`: how the chain is named in every line a person reads. */
  label: string
  anvil: Anvil
  world: World
  /** Lido, a vault, an Aave V3 market and Uniswap V4 deployed on the world, with positions. */
  defi: WorldDefi
}

/** Lines of world progress per chain, at most this often (phase changes always show). */
const PROGRESS_EVERY_MS = 1_000

/**
 * Starts one anvil per chain and builds a demo world on each, all in parallel, writing
 * progress lines as it goes. On any failure (or abort) every anvil started here is stopped
 * before the error propagates, so the caller owns anvils only once this resolves.
 */
export async function startLocalChains({
  chains,
  logger,
  write,
  signal,
}: {
  chains: readonly { chainId: number; name: string }[]
  logger: Logger
  write: (text: string) => void
  signal: AbortSignal
}): Promise<LocalChain[]> {
  const labelled = chains.map((c) => ({ ...c, label: `${c.name} (${c.chainId})` }))
  const anvils: Anvil[] = []
  // Aborted by the caller's signal, or by the first chain that fails (the others stop early).
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  const onAbort = () => controller.abort(signal.reason)
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    write(
      `Starting ${labelled.length === 1 ? 'a local chain' : `${labelled.length} local chains`} (anvil)…\n`,
    )
    const started = await Promise.allSettled(
      labelled.map((c) => startAnvil({ chainId: c.chainId, logger })),
    )
    for (const result of started) if (result.status === 'fulfilled') anvils.push(result.value)
    const failedAt = started.findIndex((r) => r.status === 'rejected')
    if (failedAt >= 0) {
      const { reason } = started[failedAt] as PromiseRejectedResult
      throw anvilFailure(labelled[failedAt]!.label, reason)
    }
    signal.throwIfAborted()
    for (const [i, c] of labelled.entries()) write(`${c.label}: anvil at ${anvils[i]!.rpcUrl}\n`)

    write('Building the demo worlds (contracts, wallets, Uniswap pools, random activity)…\n')
    const built = await Promise.allSettled(
      labelled.map((c, i) =>
        buildOne({
          chain: c,
          // Distinct per chain, so generated wallets and activity differ between chains.
          seed: c.chainId,
          rpcUrl: anvils[i]!.rpcUrl,
          logger,
          write,
          signal: controller.signal,
        }).catch((error: unknown) => {
          controller.abort(error)
          throw error
        }),
      ),
    )
    signal.throwIfAborted()
    const failed = built.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    return labelled.map((c, i) => ({
      ...c,
      anvil: anvils[i]!,
      ...(built[i] as PromiseFulfilledResult<{ world: World; defi: WorldDefi }>).value,
    }))
  } catch (error) {
    await Promise.all(anvils.map((a) => a.stop()))
    throw error
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

async function buildOne({
  chain,
  seed,
  rpcUrl,
  logger,
  write,
  signal,
}: {
  chain: { chainId: number; label: string }
  seed: number
  rpcUrl: string
  logger: Logger
  write: (text: string) => void
  signal: AbortSignal
}): Promise<{ world: World; defi: WorldDefi }> {
  let lastPhase: string | undefined
  let lastAt = 0
  const say = (text: string) => write(`${chain.label}: ${text}\n`)
  say('compiling and deploying contracts…')
  try {
    const world = await buildWorld({
      rpcUrl,
      chainId: chain.chainId,
      seed,
      logger,
      signal,
      onProgress: ({ phase, done, total }) => {
        const now = Date.now()
        const changed = phase !== lastPhase
        if (!changed && now - lastAt < PROGRESS_EVERY_MS) return
        if (phase === 'deploy' && done < total) return // already said above
        lastPhase = phase
        lastAt = now
        if (phase === 'deploy') say('contracts deployed; seeding wallets and Uniswap liquidity…')
        else if (phase === 'seed') say('seeded; random activity starting…')
        else say(`random activity ${fmt(done)}/${fmt(total)} actions`)
      },
    })
    const blocks = Number(world.endBlock - world.startBlock) + 1
    say(
      `${world.wallets.length} wallets, ${world.tokens.length} tokens, ${world.nfts.length} NFT collections, ` +
        `${fmt(world.stats.transactions)} transactions in ${fmt(blocks)} blocks, built in ${formatSeconds(world.stats.ms)}`,
    )
    signal.throwIfAborted()
    say('deploying Lido, a vault, an Aave V3 market and Uniswap V4, with positions…')
    const defiStarted = Date.now()
    const defi = await deployWorldDefi({ rpcUrl, world })
    say(`DeFi positions opened in ${formatSeconds(Date.now() - defiStarted)}`)
    return { world, defi }
  } catch (error) {
    if (signal.aborted) throw error
    throw wrapError(`Could not build the demo world on ${chain.label}.`, error)
  }
}

function anvilFailure(label: string, error: unknown): BaseError {
  return wrapError(`Could not start anvil for ${label}.`, error)
}

/** Our message first; the cause's own words follow (reportError prints a BaseError cause). */
function wrapError(shortMessage: string, error: unknown): BaseError {
  const details =
    error instanceof BaseError
      ? error.details
      : error instanceof Error
        ? error.message.split('\n')[0]
        : String(error)
  return new BaseError(shortMessage, { ...(details ? { details } : {}), cause: error })
}

function fmt(n: number): string {
  return n.toLocaleString('en-US')
}

function formatSeconds(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : formatDuration(ms / 1000)
}
