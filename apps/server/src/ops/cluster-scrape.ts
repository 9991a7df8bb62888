import cluster from "node:cluster";

export const SCRAPE_REQUEST = "enmusubi:metrics-request";
export const SCRAPE_ANSWER = "enmusubi:metrics-answer";

/**
 * The primary's half of a cluster scrape (ops/metrics.ts): a worker asks, the primary gathers
 * every worker's registry (prom-client's AggregatorRegistry) and answers the one that asked.
 * prom-client is loaded only when the first scrape comes, so the primary stays a small supervisor.
 */
export function answerClusterScrapes(): void {
  let aggregator: Promise<{ clusterMetrics(): Promise<string> }> | undefined;
  cluster.on("message", (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== SCRAPE_REQUEST) return;
    aggregator ??= import("prom-client").then((m) => new m.AggregatorRegistry());
    aggregator
      .then((registry) => registry.clusterMetrics())
      .then(
        (text) => worker.send({ type: SCRAPE_ANSWER, id: message.id, text }),
        (error: unknown) => worker.send({ type: SCRAPE_ANSWER, id: message.id, error: String(error) }),
      );
  });
}
