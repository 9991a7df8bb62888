import { Readable } from "node:stream";
import {
  type ApiDeps,
  AppError,
  type AppRouter,
  createCaller,
  createContextInner,
  invalidInput,
  isInputDatabaseError,
  resolveSession,
  type Session,
  toTRPCError,
} from "@enmusubi/api";
import { MSG } from "@enmusubi/shared";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";

export type Caller = ReturnType<typeof createCaller>;
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * Who may call a route, checked before anything else (before the body is read or validated):
 * - `public`: anyone; a token is used when valid and ignored otherwise (spec §6: login, signup,
 *   forgot, the reference lists).
 * - `signedIn`: any signed-in account, member or administrator; 401 without one.
 * - `member`: members only; 401 anonymous, 403 for an administrator.
 * - `admin`: administrators only; 401 anonymous, 403 for a member.
 * It must state what the procedure behind the route enforces (test/rest-access.test.ts proves
 * they agree for every route), and the OpenAPI document derives 401/403 from it.
 */
export type Access = "public" | "signedIn" | "member" | "admin";

/** Error statuses a route may declare beyond the ones its access and method give it (see `errorStatuses`). */
export type DeclaredErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 412 | 413 | 429;
export type ErrorStatus = DeclaredErrorStatus | 415 | 500 | 503;

/** A response header clients read, documented with its schema (the contract tests check it is sent). */
export interface ResponseHeader {
  description: string;
  schema: z.ZodType;
}

/**
 * One legacy REST route (spec §7): the caller's access is checked first, then the request is
 * validated against `input` (path params merged with the query for GET/DELETE, with the JSON body
 * otherwise) and handed to the tRPC procedure it stands for through a caller (so roles and rules
 * are the procedure's), and the answer is shaped into the legacy form. `response`, `example`,
 * `errors` and `headers` make its OpenAPI entry; the server tests hold every answer to that entry.
 */
export interface RestRoute<I extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** Fastify path: `/api/admin/users/:id`. */
  path: string;
  summary: string;
  /** Longer text for the reference page (rules, limits the service enforces). */
  description?: string;
  access: Access;
  input?: I;
  response: R;
  /** Success status, 200 unless told. */
  status?: 200 | 201;
  /** A success answer as the route gives it, shown on /api/docs (the contract tests validate it). */
  example: z.input<R>;
  /**
   * The error statuses this route's procedures can answer beyond what every route of its kind
   * answers (400 for input, 401/403 from `access`, 413/415 for a body, 500, 503), each with the
   * catalogue messages it answers with, as examples. E.g. `{ 404: MSG.notFound, 429: MSG.tooManyRequests }`.
   */
  errors?: { [S in DeclaredErrorStatus]?: string | readonly string[] };
  /** Response headers of the success answer that clients read (e.g. X-Total-Count). */
  headers?: Record<string, ResponseHeader>;
  /** Response headers an error answer carries (e.g. the current `ETag` of a 412), by status. */
  errorHeaders?: { [S in DeclaredErrorStatus]?: Record<string, ResponseHeader> };
  /** Media type of the success answer when it is not JSON (e.g. `text/csv`; sent as UTF-8); the handler returns the text. */
  contentType?: string;
  /** Keep the request body's exact bytes for the handler (`rawBodyOf`), e.g. to check a signature over them. */
  rawBody?: boolean;
  /**
   * Reads the session instead of `resolveSession`, with the same rules, when the route's answer
   * comes in the same statement (see `sessionCarrying`).
   */
  resolveSession?: SessionResolver;
  handler(caller: Caller, input: z.output<I>, request: FastifyRequest, reply: FastifyReply): Promise<z.input<R>>;
}

type SessionResolver = (
  deps: ApiDeps,
  authorization: string | undefined,
  request: FastifyRequest,
) => Promise<Session | null>;

/**
 * A route's session read together with its answer, in one round trip (GET /api/auth/me, decision 0037):
 * `resolve` is the route's `resolveSession`, and its handler takes what `read` found with
 * `foundWith`. The access check still comes first: a refused caller never reaches the handler.
 */
export function sessionCarrying<F extends { session: Session }>(
  read: (deps: ApiDeps, authorization: string | undefined) => Promise<F | null>,
): { resolve: SessionResolver; foundWith(request: FastifyRequest): F } {
  const found = new WeakMap<FastifyRequest, F>();
  return {
    async resolve(deps, authorization, request) {
      const result = await read(deps, authorization);
      if (!result) return null;
      found.set(request, result);
      return result.session;
    },
    foundWith(request) {
      const result = found.get(request);
      if (!result) throw new Error("foundWith: the route's session was not read by its resolve");
      return result;
    },
  };
}

/** Keeps each table entry's handler and example typed against its own schemas. */
export function route<I extends z.ZodType = z.ZodObject<Record<string, never>>, R extends z.ZodType = z.ZodType>(
  def: RestRoute<I, R>,
): RestRoute {
  return def as unknown as RestRoute;
}

/** Methods whose request may carry a body (Fastify reads one for these). */
export const hasBody = (method: HttpMethod): boolean => method !== "GET";

/** The refusal `access` gives this caller, or null when the caller may go on. */
export function accessDenied(access: Access, session: Session | null): { status: 401 | 403; message: string } | null {
  if (access === "public") return null;
  if (!session) return { status: 401, message: MSG.unauthorized };
  if (access === "member" && session.role !== "user") return { status: 403, message: MSG.forbidden };
  if (access === "admin" && session.role !== "admin") return { status: 403, message: MSG.forbidden };
  return null;
}

/** The first validation message of `input` for a request that sends nothing, if it refuses that. */
function emptyRequestMessage(def: RestRoute): string | undefined {
  const parsed = def.input?.safeParse({});
  return parsed && !parsed.success ? invalidInput(parsed.error).message : undefined;
}

/**
 * Every error status a route can answer, each with the messages it answers with: the ones its
 * kind gives (derived here, in one place, from its access, method, path and input) plus those it
 * declares. The OpenAPI document is built from this.
 */
export function errorStatuses(def: RestRoute): Map<ErrorStatus, string[]> {
  const out = new Map<ErrorStatus, string[]>();
  const add = (status: ErrorStatus, ...messages: Array<string | undefined>) => {
    const list = out.get(status) ?? [];
    for (const m of messages) if (m !== undefined && !list.includes(m)) list.push(m);
    out.set(status, list);
  };
  const hasParams = def.path.includes(":");
  if (def.input || hasBody(def.method) || hasParams) {
    add(
      400,
      emptyRequestMessage(def),
      hasBody(def.method) ? MSG.invalidJson : undefined,
      // A path parameter that is not valid percent-encoding (Fastify refuses it before the route).
      hasParams ? MSG.invalidUrl : undefined,
    );
    if (out.get(400)?.length === 0) add(400, MSG.badRequest);
  }
  if (def.access !== "public") add(401, MSG.unauthorized);
  if (def.access === "member" || def.access === "admin") add(403, MSG.forbidden);
  if (hasBody(def.method)) {
    add(413, MSG.payloadTooLarge);
    add(415, MSG.unsupportedMediaType);
  }
  for (const [status, messages] of Object.entries(def.errors ?? {})) {
    add(Number(status) as ErrorStatus, ...(typeof messages === "string" ? [messages] : (messages ?? [])));
  }
  // A path parameter names something that may not exist (or no longer does): every such route
  // lists 404, with the messages it declares or else the generic one.
  if (hasParams && !out.has(404)) add(404, MSG.notFound);
  add(500, MSG.internalError);
  // Any request arriving while the server shuts down (app.ts).
  add(503, MSG.serviceUnavailable);
  return new Map([...out].sort(([a], [b]) => a - b));
}

/**
 * `{ message }` plus any figures the error carries (e.g. required/available points). Every error a
 * handler throws (a procedure's TRPCError, an AppError or a ZodError of its own, a database refusal
 * of a value) is shaped by errors.ts, as tRPC's are: a validation error is 400, never 500.
 */
function sendError(reply: FastifyReply, error: unknown, request: FastifyRequest) {
  const mapped = toTRPCError(error);
  const status = getHTTPStatusCodeFromError(mapped);
  if (status >= 500) {
    request.log.error({ err: mapped.cause ?? error }, "legacy route failed");
    return reply.status(500).send({ message: MSG.internalError });
  }
  // The schemas should have stopped it: a value the database refused is logged, and answered 400.
  if (isInputDatabaseError(error))
    request.log.warn({ err: error }, "legacy route: the database refused an input value");
  const details = mapped.cause instanceof AppError ? mapped.cause.details : undefined;
  return reply.status(status).send({ ...details, message: mapped.message });
}

/** A caller made when the handler first uses it: a route answering from its session's statement never does. */
function callerOnFirstUse(make: () => Caller): Caller {
  let caller: Caller | undefined;
  return new Proxy({} as Caller, {
    get: (_target, key) => {
      caller ??= make();
      return Reflect.get(caller, key);
    },
  });
}

const sessions = new WeakMap<FastifyRequest, Session | null>();
const rawBodies = new WeakMap<FastifyRequest, string>();

/** The body exactly as received, for a route declared with `rawBody` ("" otherwise or when none). */
export function rawBodyOf(request: FastifyRequest): string {
  return rawBodies.get(request) ?? "";
}

export function registerRoutes(app: FastifyInstance, routes: RestRoute[]): void {
  for (const def of routes) {
    app.route({
      method: def.method,
      url: def.path,
      // Who is calling is settled before the body is read: an anonymous caller of an admin route
      // gets 401 (and a member 403) whatever it sends, never a field error or a body-size refusal.
      onRequest: async (request, reply) => {
        const session = await (def.resolveSession ?? resolveSession)(app.deps, request.headers.authorization, request);
        const denied = accessDenied(def.access, session);
        if (denied) return reply.status(denied.status).send({ message: denied.message });
        sessions.set(request, session);
      },
      ...(def.rawBody
        ? {
            preParsing: async (request: FastifyRequest, _reply: FastifyReply, payload: NodeJS.ReadableStream) => {
              const chunks: Buffer[] = [];
              for await (const chunk of payload) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
              const raw = Buffer.concat(chunks);
              rawBodies.set(request, raw.toString("utf8"));
              const again = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
              again.receivedEncodedLength = raw.length;
              return again;
            },
          }
        : {}),
      handler: async (request, reply) => {
        const carrier = def.method === "GET" || def.method === "DELETE" ? request.query : request.body;
        // A JSON body must be an object; an array, a string, a number or null is refused.
        if (carrier !== undefined && (typeof carrier !== "object" || carrier === null || Array.isArray(carrier))) {
          return reply.status(400).send({ message: MSG.invalidJson });
        }
        // A route without input takes nothing from the request (what z.object({}) would give).
        let input: unknown = {};
        if (def.input) {
          const parsed = def.input.safeParse({
            ...(carrier && typeof carrier === "object" && !Array.isArray(carrier) ? carrier : {}),
            ...(request.params as object),
          });
          if (!parsed.success) {
            return reply.status(400).send({ message: invalidInput(parsed.error).message });
          }
          input = parsed.data;
        }
        try {
          const caller = callerOnFirstUse(() =>
            createCaller(createContextInner(app.deps, sessions.get(request) ?? null, request.ip, request.id)),
          );
          const result = await def.handler(caller, input, request, reply);
          if (def.contentType) reply.type(`${def.contentType}; charset=utf-8`);
          return reply.status(def.status ?? 200).send(result);
        } catch (error) {
          return sendError(reply, error, request);
        }
      },
    });
  }
}

export type { AppRouter };
