import { createRequire } from 'node:module'

export type Surfpool = {
  rpcUrl: string
  wsUrl: string
  /** The funded payer's 64-byte secret key. */
  payerSecretKey: Uint8Array
  stop(): void
}

type SurfnetInstance = {
  rpcUrl: string
  wsUrl: string
  payerSecretKey: number[] | Uint8Array
  drainEvents(): unknown
  stop(): void
}
type SurfnetClass = { startWithConfig(config: Record<string, unknown>): SurfnetInstance }

/**
 * A Solana RPC server in this process: Surfpool's embedded runtime (npm
 * `@solana/surfpool-linux-x64-gnu`), which runs the real SPL Token and Token-2022 programs.
 * `offline: true`: no remote datasource, so nothing is fetched from mainnet (an account that
 * was not planted does not exist). Slots advance on a clock (`slotTimeMs`), so transactions
 * reach `finalized` about 32 slots after they land.
 */
export function startSurfpool({
  slotTimeMs = 20,
  airdropLamports = 100_000 * 1e9,
}: {
  slotTimeMs?: number
  airdropLamports?: number
} = {}): Surfpool {
  const require = createRequire(import.meta.url)
  const { Surfnet } = require('@solana/surfpool-linux-x64-gnu') as { Surfnet: SurfnetClass }
  const surfnet = Surfnet.startWithConfig({
    offline: true,
    blockProductionMode: 'clock',
    slotTimeMs,
    // despite its name, Surfpool reads this as lamports for the payer
    airdropSol: airdropLamports,
  })
  // Surfpool queues an event per account change and transaction in a bounded channel; once
  // it is full (~500 events) the node stops answering. Nobody here reads them: drop them.
  const drain = setInterval(() => surfnet.drainEvents(), 50)
  drain.unref()
  let stopped = false
  return {
    rpcUrl: surfnet.rpcUrl,
    wsUrl: surfnet.wsUrl,
    payerSecretKey: Uint8Array.from(surfnet.payerSecretKey),
    stop() {
      if (stopped) return
      stopped = true
      clearInterval(drain)
      surfnet.stop()
    },
  }
}
