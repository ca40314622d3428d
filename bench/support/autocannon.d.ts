/** The part of autocannon 9's programmatic API the benches use (the package ships no types). */
declare module 'autocannon' {
  type Histogram = {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p50: number
    p90: number
    p99: number
  }
  type Request = {
    method?: string
    path?: string
    headers?: Record<string, string>
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request | undefined
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => void
  }
  type Options = {
    url: string
    connections?: number
    duration?: number
    amount?: number
    headers?: Record<string, string>
    requests?: Request[]
  }
  type Result = {
    requests: Histogram
    latency: Histogram
    throughput: Histogram
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
    statusCodeStats: Record<string, { count: number }>
  }
  function autocannon(options: Options): Promise<Result> & { stop(): void }
  export default autocannon
}
