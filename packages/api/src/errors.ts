import { MSG, REFUSAL_REASONS, type RefusalReason } from "@enmusubi/shared";
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";

export type AppErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PRECONDITION_FAILED"
  | "PAYMENT_REQUIRED"
  | "PAYLOAD_TOO_LARGE"
  | "TOO_MANY_REQUESTS";

/**
 * A user-facing failure with a Japanese message from the catalogue. Services throw it; this file
 * is the one place where it (or invalid input, or anything unexpected) becomes a transport error.
 * `details` are extra figures a client may show (e.g. the required and available points);
 * `reason` says what the member can do about it, machine-readable (tRPC `error.data.reason`).
 */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly reason: RefusalReason | undefined;

  constructor(
    code: AppErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown>; reason?: RefusalReason } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
    this.reason = options.reason;
  }
}

export const notFound = () => new AppError("NOT_FOUND", MSG.notFound);
export const badRequest = (message: string) => new AppError("BAD_REQUEST", message);
/**
 * A member who is not age-verified asked for one of the acts that need it (decision 0006): 403
 * with the catalogue's message and the reason `verification_required` (decision 0032), so the web
 * app shows the verification banner with its link instead of the message.
 */
export const verificationRequired = () =>
  new AppError("FORBIDDEN", MSG.verificationRequired, { reason: REFUSAL_REASONS.verificationRequired });

/** Invalid input: BAD_REQUEST carrying the first (Japanese) validation message. */
export function invalidInput(error: ZodError): AppError {
  return new AppError("BAD_REQUEST", error.issues[0]?.message ?? MSG.badRequest, { cause: error });
}

/** Postgres unique violation (error code 23505), seen through either driver. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/**
 * PostgreSQL's refusals of a value the input carried: a datetime out of range (22008), a number
 * out of range (22003), an unreadable datetime (22007), an unreadable number or uuid (22P02). The
 * schemas (packages/shared/src/schemas/values.ts) stop such values first; should one still reach
 * the database, it is the caller's bad input (400, logged), not a server failure.
 */
const INPUT_DATA_ERRORS = new Set(["22008", "22003", "22007", "22P02"]);

/** True when `error` (or a cause of it) is PostgreSQL refusing a value the input carried. */
export function isInputDatabaseError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && INPUT_DATA_ERRORS.has(code)) return true;
  }
  return false;
}

/** What a client reads for errors the framework raises itself (unknown procedure, bad request body…). */
const FRAMEWORK_MESSAGES: Partial<Record<TRPCError["code"], string>> = {
  PARSE_ERROR: MSG.invalidJson,
  BAD_REQUEST: MSG.badRequest,
  UNAUTHORIZED: MSG.unauthorized,
  FORBIDDEN: MSG.forbidden,
  NOT_FOUND: MSG.notFound,
  METHOD_NOT_SUPPORTED: MSG.badRequest,
  PAYLOAD_TOO_LARGE: MSG.payloadTooLarge,
  TOO_MANY_REQUESTS: MSG.tooManyRequests,
  UNSUPPORTED_MEDIA_TYPE: MSG.invalidJson,
};

/** Any thrown value → the TRPCError a client sees; unexpected failures become a 500 with no detail. */
export function toTRPCError(error: unknown): TRPCError {
  const cause = error instanceof TRPCError && error.cause ? error.cause : error;
  if (cause instanceof AppError) return new TRPCError({ code: cause.code, message: cause.message, cause });
  if (cause instanceof ZodError) return toTRPCError(invalidInput(cause));
  if (isInputDatabaseError(cause)) return new TRPCError({ code: "BAD_REQUEST", message: MSG.badRequest, cause });
  if (error instanceof TRPCError && error.code !== "INTERNAL_SERVER_ERROR") {
    return new TRPCError({ code: error.code, message: FRAMEWORK_MESSAGES[error.code] ?? MSG.badRequest, cause: error });
  }
  return new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: MSG.internalError, cause });
}

/** The Japanese message of an error that already went through `toTRPCError` (or the framework's own). */
export function publicMessage(error: TRPCError): string {
  if (error.cause instanceof AppError) return error.cause.message;
  if (error.code === "INTERNAL_SERVER_ERROR") return MSG.internalError;
  return toTRPCError(error).message;
}
