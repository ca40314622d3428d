/** `SCRY_DEBUG=1` (or `true`): print stack traces of unexpected errors. */
export function isDebugEnabled(env: Record<string, string | undefined> = process.env): boolean {
  const value = env.SCRY_DEBUG?.trim().toLowerCase()
  return value === '1' || value === 'true'
}
