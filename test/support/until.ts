/**
 * Polls `read` until it gives a value (not undefined or false; a throw counts as not yet),
 * else fails with `what` after `ms`. `where` prefixes the message (the test's seed).
 */
export async function until<T>({
  what,
  read,
  ms = 60_000,
  where = '',
  everyMs = 25,
}: {
  what: string
  read: () => Promise<T | undefined | false>
  ms?: number
  where?: string
  everyMs?: number
}): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = await read().catch(() => undefined)
    if (value !== undefined && value !== false) return value
    if (Date.now() > end) throw new Error(`${where ? `${where}: ` : ''}${what} within ${ms} ms`)
    await new Promise((r) => setTimeout(r, everyMs))
  }
}
