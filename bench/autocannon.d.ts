// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  export interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p2_5: number
    p50: number
    p90: number
    p97_5: number
    p99: number
  }
  export interface Request {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }
  export interface Options {
    url: string
    connections?: number
    duration?: number
    pipelining?: number
    timeout?: number
    headers?: Record<string, string>
    requests?: Request[]
    title?: string
  }
  export interface Result {
    title?: string
    requests: Histogram
    latency: Histogram
    throughput: Histogram
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    mismatches: number
    '2xx': number
    statusCodeStats: Record<string, { count: number }>
  }
  export interface Instance {
    /** `responseTime` in milliseconds, with sub-millisecond precision (the result's histograms keep whole ms). */
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): Instance
    stop(): void
  }
  function autocannon(options: Options): Promise<Result>
  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance
  export default autocannon
}
