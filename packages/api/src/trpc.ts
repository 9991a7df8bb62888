import { MSG } from "@enmusubi/shared";
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import type { Context } from "./context";
import { AppError, toTRPCError } from "./errors";

const t = initTRPC.context<Context>().create({
  // Dates and other rich values keep their types between server and web app.
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    // Input validation: the first Japanese message becomes the error message.
    if (cause instanceof ZodError) {
      return {
        ...shape,
        message: cause.issues[0]?.message ?? MSG.badRequest,
        data: { ...shape.data, stack: undefined },
      };
    }
    return {
      ...shape,
      data: {
        ...shape.data,
        stack: undefined,
        details: cause instanceof AppError ? cause.details : undefined,
      },
    };
  },
});

/**
 * Turns every thrown error into its transport form in one place: AppError → its code, invalid
 * input → BAD_REQUEST carrying the first (Japanese) validation message, anything else → 500.
 */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  if (cause instanceof ZodError) {
    throw new TRPCError({ code: "BAD_REQUEST", message: cause.issues[0]?.message ?? MSG.badRequest, cause });
  }
  throw toTRPCError(result.error);
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

export const publicProcedure = t.procedure.use(mapErrors);

const signedIn = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: "UNAUTHORIZED", message: MSG.unauthorized });
  return next({ ctx: { ...ctx, session: ctx.session } });
});

/** Any signed-in account (member or administrator). */
export const authedProcedure = signedIn;

/** Members only (role user); an administrator gets FORBIDDEN. */
export const memberProcedure = signedIn.use(({ ctx, next }) => {
  if (ctx.session.role !== "user") throw new TRPCError({ code: "FORBIDDEN", message: MSG.forbidden });
  return next();
});

/** Administrators only; a member gets FORBIDDEN. */
export const adminProcedure = signedIn.use(({ ctx, next }) => {
  if (ctx.session.role !== "admin") throw new TRPCError({ code: "FORBIDDEN", message: MSG.forbidden });
  return next();
});
