import { type AppRouter, appRouter, createContext, isInputDatabaseError } from "@enmusubi/api";
import { MSG } from "@enmusubi/shared";
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import type { FastifyInstance } from "fastify";

const bearer = (token: unknown) => (typeof token === "string" && token ? `Bearer ${token}` : undefined);

export async function registerTrpc(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    // The tRPC plugin accepts multipart/form-data and reads such a body whole, past Fastify's
    // bodyLimit. The app's procedures take JSON only, so a multipart request is refused before
    // its body is read.
    scope.addHook("onRequest", async (request, reply) => {
      if (request.headers["content-type"]?.trimStart().toLowerCase().startsWith("multipart/")) {
        return reply.status(415).send({ message: MSG.unsupportedMediaType });
      }
    });
    await scope.register(fastifyTRPCPlugin, {
      prefix: "/trpc",
      trpcOptions: {
        router: appRouter,
        // A subscription over SSE (EventSource) cannot send headers: its token comes as a connection parameter.
        createContext: ({ req, info }) =>
          createContext(app.deps, {
            authorization: req.headers.authorization ?? bearer(info.connectionParams?.token),
            ip: req.ip,
            requestId: req.id,
          }),
        onError: ({ error, path }) => {
          if (error.code === "INTERNAL_SERVER_ERROR")
            app.log.error({ err: error.cause ?? error, path }, "procedure failed");
          // Answered 400 (errors.ts), but the schemas should have stopped the value: worth a look.
          else if (isInputDatabaseError(error))
            app.log.warn({ err: error.cause ?? error, path }, "the database refused an input value");
        },
      } satisfies FastifyTRPCPluginOptions<AppRouter>["trpcOptions"],
    });
  });
}
