/** Facts of the wire between the web app and the server. */

/**
 * The longest URL a tRPC batch of the web app may have (httpBatchLink's `maxURLLength`: a longer
 * batch is split into several requests), and the longest path parameter the server's router
 * accepts (Fastify's `maxParamLength`, 100 by default). A batch of queries names its procedures
 * in the path (`/trpc/a,b,c?batch=1&input=…`), so with the default a page's batched reads passed
 * the limit and were refused (414) (decision 0016).
 */
export const TRPC_MAX_URL_LENGTH = 2000;

/**
 * Why a refusal was made, machine-readable, beside its Japanese message (tRPC `error.data.reason`,
 * decision 0032): clients show the way out (the verification page) instead of the message text.
 */
export const REFUSAL_REASONS = { verificationRequired: "verification_required" } as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[keyof typeof REFUSAL_REASONS];
