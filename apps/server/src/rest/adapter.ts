import { type AppRouter, createCaller, createContext } from "@enmusubi/api";
import { MSG } from "@enmusubi/shared";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";

export type Caller = ReturnType<typeof createCaller>;
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * One legacy REST route (spec §7): the request is validated against `input` (path params merged
 * with the query for GET/DELETE, with the JSON body otherwise), handed to the tRPC procedure it
 * stands for through a caller (so roles and rules are the procedure's), and the answer is shaped
 * into the legacy form. `response` documents that form in the OpenAPI document.
 */
export interface RestRoute<I extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** Fastify path: `/api/admin/users/:id`. */
  path: string;
  summary: string;
  /** false for the calls the spec lists as open (login, signup, forgot, reference lists). */
  auth: boolean;
  input?: I;
  response: R;
  status?: number;
  handler(caller: Caller, input: z.output<I>, request: FastifyRequest, reply: FastifyReply): Promise<z.input<R>>;
}

/** Keeps each table entry's handler typed against its own schemas. */
export function route<I extends z.ZodType = z.ZodObject<Record<string, never>>, R extends z.ZodType = z.ZodType>(
  def: RestRoute<I, R>,
): RestRoute {
  return def as unknown as RestRoute;
}

/** `{ message }` plus any figures the error carries (e.g. required/available points). */
function sendError(reply: FastifyReply, error: unknown, request: FastifyRequest) {
  if (error instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(error);
    if (status >= 500) {
      request.log.error({ err: error.cause ?? error }, "legacy route failed");
      return reply.status(500).send({ message: MSG.internalError });
    }
    const details = (error.cause as { details?: Record<string, unknown> } | undefined)?.details;
    return reply.status(status).send({ ...details, message: error.message });
  }
  request.log.error({ err: error }, "legacy route failed");
  return reply.status(500).send({ message: MSG.internalError });
}

export function registerRoutes(app: FastifyInstance, routes: RestRoute[]): void {
  for (const def of routes) {
    app.route({
      method: def.method,
      url: def.path,
      handler: async (request, reply) => {
        const carrier = def.method === "GET" || def.method === "DELETE" ? request.query : request.body;
        // A JSON body must be an object; an array, a string, a number or null is refused.
        if (carrier !== undefined && (typeof carrier !== "object" || carrier === null || Array.isArray(carrier))) {
          return reply.status(400).send({ message: MSG.invalidJson });
        }
        const raw = {
          ...(carrier && typeof carrier === "object" && !Array.isArray(carrier) ? carrier : {}),
          ...(request.params as object),
        };
        const parsed = (def.input ?? z.object({})).safeParse(raw);
        if (!parsed.success) {
          return reply.status(400).send({ message: parsed.error.issues[0]?.message ?? MSG.badRequest });
        }
        try {
          const ctx = await createContext(app.deps, { authorization: request.headers.authorization, ip: request.ip });
          const result = await def.handler(createCaller(ctx), parsed.data, request, reply);
          return reply.status(def.status ?? 200).send(result);
        } catch (error) {
          return sendError(reply, error, request);
        }
      },
    });
  }
}

export type { AppRouter };
