import { type FastifyReply, type FastifyRequest, LogController } from "fastify";

/** What the server logs of errors and requests: never data (query parameters, hashes, tokens, addresses). */

/**
 * Fields of an error worth logging besides its type, message, stack and cause: codes and names
 * (of a Postgres table, column, constraint), never data. Everything else an error carries is
 * dropped: drivers attach the statement's parameters (`parameters`, `params`, `args`, `values`),
 * the failing row (`detail`: "Failing row contains (…)"), the raw request (`rawPacket`), and
 * those hold password hashes, e-mail addresses and tokens.
 */
const LOGGED_ERROR_FIELDS = [
  "code",
  "errno",
  "syscall",
  "statusCode",
  "severity",
  "routine",
  "schema",
  "schema_name",
  "table",
  "table_name",
  "column",
  "column_name",
  "constraint",
  "constraint_name",
  "dataType",
  "data_type_name",
  "responseCode",
] as const;

/**
 * Removes data from an error's text: drizzle puts the parameters into the message ("Failed query:
 * … \nparams: …") and so into the stack and into the message of every error wrapping it (tRPC's
 * INTERNAL_SERVER_ERROR takes its cause's message). Argon2 hashes and JWTs are masked wherever
 * they appear.
 */
function scrubText(text: string): string {
  return maskSecrets(text.replace(/(\nparams: )[\s\S]*$/, "$1[redacted]"));
}

function maskSecrets(text: string): string {
  return text
    .replace(/\$argon2[a-z]*\$[^\s,'")]+/g, "[redacted hash]")
    .replace(/\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, "[redacted token]");
}

/** The stack repeats the message before its frames: the parameters go, the frames stay. */
function scrubStack(stack: string, message: string): string {
  const scrubbedMessage = scrubText(message);
  const withMessage = message && message !== scrubbedMessage ? stack.split(message).join(scrubbedMessage) : stack;
  return maskSecrets(withMessage.replace(/(\nparams: )(?!\[redacted\])[\s\S]*?(?=\n {4}at |$)/, "$1[redacted]"));
}

/**
 * pino serializer for errors (`err` and `error` keys, every logger of the app): type, message,
 * stack, the codes above and the cause chain, with data scrubbed out. Secrets never reach the log.
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (error === null || typeof error !== "object") return typeof error === "string" ? scrubText(error) : error;
  const source = error as Record<string, unknown>;
  const message = typeof source.message === "string" ? source.message : "";
  const out: Record<string, unknown> = {
    type: (error as object).constructor?.name ?? "Object",
    message: scrubText(message),
  };
  if (typeof source.stack === "string") out.stack = scrubStack(source.stack, message);
  for (const field of LOGGED_ERROR_FIELDS) {
    const value = source[field];
    if (typeof value === "string" || typeof value === "number") out[field] = value;
  }
  if (depth < 5) {
    if (source.cause !== undefined) out.cause = serializeError(source.cause, depth + 1);
    if (Array.isArray(source.errors)) out.errors = source.errors.slice(0, 10).map((e) => serializeError(e, depth + 1));
  }
  return out;
}

/** serializeError in the shape Fastify's logger options expect. */
export const logError = (error: unknown) =>
  serializeError(error) as { [key: string]: unknown; type: string; message: string; stack: string };

/**
 * Makes an error safe to print where no serializer runs (the fatal message at start): the same
 * scrubbing of message and stack, on the error itself and its causes.
 */
export function scrubErrorInPlace(error: unknown, depth = 0): unknown {
  if (error instanceof Error && depth < 5) {
    const message = error.message;
    if (error.stack) error.stack = scrubStack(error.stack, message);
    error.message = scrubText(message);
    scrubErrorInPlace(error.cause, depth + 1);
  }
  return error;
}

/** The request as logged: the path without its query string (tRPC inputs and searches live there). */
export function serializeRequest(request: FastifyRequest) {
  const url = request.url ?? "";
  const query = url.indexOf("?");
  return {
    method: request.method,
    url: query === -1 ? url : `${url.slice(0, query)}?[query omitted]`,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Request logging at a cost that does not show under load: Fastify's two info lines per request
 * (incoming, completed) cost 6–15% of the throughput of a fast endpoint (decision 0011). A request that
 * failed (status ≥ 400, or an error) is still logged at info with its method and path; a
 * successful one only at debug (LOG_LEVEL=debug logs every request as before). Errors of routes
 * are logged where they are handled (error level), as before.
 */
const verbose = (request: FastifyRequest) => request.log.level === "debug" || request.log.level === "trace";

export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (verbose(request)) super.incomingRequest(request, reply, metadata);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error || verbose(request)) {
      super.requestCompleted(error, request, reply, metadata);
    } else if (reply.statusCode >= 400 && !this.isLogDisabled(request)) {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, "request completed");
    }
  }
}
