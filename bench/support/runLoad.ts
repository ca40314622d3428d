import autocannon from 'autocannon'

export type LoadResult = {
  name: string
  requestsPerSecond: number
  p50: number
  p99: number
  requests: number
  /** Non-2xx responses plus connection errors and timeouts. */
  failures: number
  firstFailure: { status: number; path: string; body: string } | undefined
}

/**
 * Drives one endpoint with autocannon for `seconds`; each request's path comes from `path()`
 * (a random wallet per request), so the figures are not those of one cached row.
 */
export async function runLoad({
  name,
  url,
  key,
  path,
  seconds,
  connections,
}: {
  name: string
  url: string
  key: string
  path: () => string
  seconds: number
  connections: number
}): Promise<LoadResult> {
  let firstFailure: LoadResult['firstFailure']
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { 'x-scry-api-key': key },
    requests: [
      {
        method: 'GET',
        setupRequest: (request, context) => {
          const next = path()
          context.path = next
          return { ...request, path: next }
        },
        onResponse: (status, body, context) => {
          if (firstFailure === undefined && (status < 200 || status >= 300)) {
            firstFailure = { status, path: String(context.path), body }
          }
        },
      },
    ],
  })
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    firstFailure,
  }
}
