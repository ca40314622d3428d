import { createServer } from 'node:net'
import { ConfigError } from '../internal/errors.ts'

/**
 * Throws a `ConfigError` naming the flag when `host:port` cannot be listened on (in use, or
 * not an address of this machine): for commands that would otherwise find out only after a
 * long start. Port 0 (any free port) always passes.
 */
export async function assertPortFree({ host, port }: { host: string; port: number }) {
  if (port === 0) return
  const server = createServer()
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen({ host, port, exclusive: true }, resolve)
    })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new ConfigError(
      code === 'EADDRINUSE'
        ? `Port ${port} on ${host} is in use (another scry, or another server).`
        : `Cannot listen on ${host}:${port} (${code ?? 'error'}).`,
      { details: 'Pick another with --port (or --host), SCRY_PORT, or server.port.' },
    )
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}
