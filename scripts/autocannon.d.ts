/** The part of autocannon 8's API the benchmarks use (the package ships no types). */
declare module "autocannon" {
  interface Options {
    url: string;
    method?: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    body?: string;
    /** Each connection cycles through these requests in order. */
    requests?: Array<{ method?: string; path?: string; headers?: Record<string, string>; body?: string }>;
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    /** How many in all (autocannon fills it for requests and throughput). */
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
