/** Whether a route's 2xx answer has a `warnings` field a hook may add to. */
export function answersWithWarnings(schema: { response?: unknown }): boolean {
  const responses = (schema.response ?? {}) as Record<string, { properties?: object }>
  const success = Object.entries(responses).find(([status]) => /^2/.test(status))?.[1]
  return success?.properties !== undefined && 'warnings' in success.properties
}
