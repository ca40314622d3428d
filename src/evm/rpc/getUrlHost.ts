/**
 * The part of an RPC URL that is safe to print: host and port. Paths, queries and credentials
 * often hold API keys.
 */
export function getUrlHost(url: string): string {
  try {
    return new URL(url).host || 'unknown host'
  } catch {
    return 'invalid url'
  }
}
