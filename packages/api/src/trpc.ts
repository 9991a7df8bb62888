import type { PointAction } from "@enmusubi/shared";
import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import type { Context } from "./context";
import type { Session } from "./deps";
import { AppError, publicMessage, toTRPCError } from "./errors";
import { recordRefusal, ScreeningRefusal } from "./screening/screen";
import { type Requirement, standingRefusal } from "./verification/standing";

/** What a procedure declares about itself; tests walk the router by it (see points/paid-procedure). */
export interface ProcedureMeta {
  /** The point-cost action a paid procedure charges (set by `paidProcedure`, never by hand). */
  paidAction?: PointAction;
  /** Set by `verifiedProcedure`: one of the four acts of 出会い系サイト規制法 art. 11 (tests walk it). */
  requiresVerification?: boolean;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    // Dates and other rich values keep their types between server and web app.
    transformer: superjson,
    // Every answer, the framework's own too (unknown procedure, unreadable body), carries a Japanese message.
    errorFormatter({ shape, error }) {
      const cause = error.cause;
      return {
        ...shape,
        message: publicMessage(error),
        data: {
          ...shape.data,
          stack: undefined,
          details: cause instanceof AppError ? cause.details : undefined,
          // What the member can do about it (decision 0032), only when there is something.
          ...(cause instanceof AppError && cause.reason ? { reason: cause.reason } : {}),
        },
      };
    },
  });

/**
 * Every thrown error becomes its transport form in one place (errors.ts). The call's duration is
 * told to the host (`observeProcedure`: the server's /metrics).
 */
const mapErrors = t.middleware(async ({ ctx, path, type, next }) => {
  const started = performance.now();
  const result = await next();
  ctx.observeProcedure?.({ path, type, seconds: (performance.now() - started) / 1000, ok: result.ok });
  if (result.ok) return result;
  // A write refused by screening is recorded now that its transaction has rolled back (decision 0042).
  if (result.error.cause instanceof ScreeningRefusal) await recordRefusal(ctx.db, result.error.cause).catch(() => {});
  throw toTRPCError(result.error);
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/*
 * Who may call a procedure is stated by the builder it starts from, in layers: role (public,
 * signed in, member, administrator), then standing, then payment (`paidProcedure` in
 * points/paid-procedure.ts, which starts from `memberProcedure`).
 */

export const publicProcedure = t.procedure.use(mapErrors);

/** Refuses the call unless the session's standing meets `need` (verification/standing.ts, the one rule). */
const requires = (need: Requirement) =>
  t.middleware(({ ctx, next }) => {
    const refusal = standingRefusal(ctx.session, need);
    if (refusal) throw refusal;
    return next();
  });

/** Any signed-in account (member or administrator). */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  const refusal = standingRefusal(ctx.session);
  if (refusal || !ctx.session) throw refusal;
  // The session is narrowed by the type only: given a context, tRPC would copy every field of it
  // into a new one (through a slow spread helper) on each call, for the same values (decision 0037).
  return next() as ReturnType<typeof next<{ session: Session }>>;
});

/** Members only (role user); an administrator gets FORBIDDEN. */
export const memberProcedure = authedProcedure.use(requires({ role: "user" }));

/** Administrators only; a member gets FORBIDDEN. */
export const adminProcedure = authedProcedure.use(requires({ role: "admin" }));

/**
 * Members who have passed age verification (docs/decisions/0006): the four acts of
 * 出会い系サイト規制法 art. 11 (send a message, read another member's message, read or post on the
 * board) start here. Anyone else gets FORBIDDEN with a message that points to the verification page.
 * The state is read on every request, by the session's own query (context.ts), so an approval or
 * a rejection applies at once.
 */
export const verifiedProcedure = memberProcedure
  .meta({ requiresVerification: true })
  .use(requires({ role: "user", verified: true }));
