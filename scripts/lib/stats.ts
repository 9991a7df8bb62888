import { performance } from "node:perf_hooks";

/** What every benchmark prints: one line to standard output. */
export const log = (line = "") => process.stdout.write(`${line}\n`);

/** The `p`th percentile of ascending `sorted` samples (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** Median and p95 of samples in any order. */
export function summarize(samples: readonly number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** This process's resident set size in MB. */
export const rssMb = () => process.memoryUsage().rss / 1024 / 1024;

/** Seconds since `started` (a performance.now() reading), with one decimal. */
export const secondsSince = (started: number) => ((performance.now() - started) / 1000).toFixed(1);
