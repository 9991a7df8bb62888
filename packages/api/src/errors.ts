import { MSG } from "@enmusubi/shared";
import { TRPCError } from "@trpc/server";

export type AppErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PAYMENT_REQUIRED"
  | "PAYLOAD_TOO_LARGE"
  | "TOO_MANY_REQUESTS";

/**
 * A user-facing failure with a Japanese message from the catalogue. Services throw it; `toTRPCError`
 * is the one place it becomes a transport error. `details` are extra figures a client may show
 * (for example the required and available points of a failed charge).
 */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: AppErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
  }
}

export const notFound = () => new AppError("NOT_FOUND", MSG.notFound);
export const badRequest = (message: string) => new AppError("BAD_REQUEST", message);

/** Postgres unique violation (error code 23505), seen through either driver. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

export function toTRPCError(error: unknown): TRPCError {
  if (error instanceof TRPCError && !(error.cause instanceof AppError)) return error;
  const cause = error instanceof TRPCError ? error.cause : error;
  if (cause instanceof AppError) return new TRPCError({ code: cause.code, message: cause.message, cause });
  return new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: MSG.internalError, cause });
}
