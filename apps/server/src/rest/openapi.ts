import { z } from "zod";
import type { RestRoute } from "./adapter";

type JsonSchema = Record<string, unknown>;

/**
 * What a client sends is the input side of a schema: the start of a pipe (`.transform`, `.pipe`).
 * `z.preprocess(fn, schema)` (digit strings, photo objects) starts with an opaque function, so
 * there the schema after it describes the body.
 */
function documented(type: z.ZodType): z.ZodType {
  const def = type._zod.def as { type: string; in?: z.ZodType; out?: z.ZodType };
  if (def.type !== "pipe" || !def.in || !def.out) return type;
  return documented(def.in._zod.def.type === "transform" ? def.out : def.in);
}

function schemaOf(type: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _drop, ...schema } = z.toJSONSchema(documented(type), {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
  }) as JsonSchema;
  return schema;
}

/** OpenAPI 3.1 document of the legacy REST layer, generated from the same zod schemas it validates with. */
export function buildOpenApiDocument(routes: RestRoute[], info: { version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const openPath = r.path.replace(/:(\w+)/g, "{$1}");
    const pathParams = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    const input = r.input ? schemaOf(r.input, "input") : undefined;
    const props = (input?.properties ?? {}) as Record<string, JsonSchema>;
    const requiredProps = new Set((input?.required as string[] | undefined) ?? []);
    const parameters: unknown[] = pathParams.map((name) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    let requestBody: unknown;
    if (r.method === "GET" || r.method === "DELETE") {
      for (const [name, schema] of Object.entries(props)) {
        if (pathParams.includes(name)) continue;
        parameters.push({ name, in: "query", required: requiredProps.has(name), schema });
      }
    } else if (input) {
      const bodyProps = Object.fromEntries(Object.entries(props).filter(([k]) => !pathParams.includes(k)));
      requestBody = {
        required: true,
        content: {
          "application/json": {
            schema: {
              ...input,
              properties: bodyProps,
              required: [...requiredProps].filter((k) => !pathParams.includes(k)),
            },
          },
        },
      };
    }
    const errorBody = { content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    paths[openPath] ??= {};
    (paths[openPath] as Record<string, unknown>)[r.method.toLowerCase()] = {
      summary: r.summary,
      operationId: `${r.method.toLowerCase()}${openPath.replace(/[^a-zA-Z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase())}`,
      tags: [openPath.split("/")[2] ?? "api"],
      ...(r.auth ? {} : { security: [] }),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        [String(r.status ?? 200)]: {
          description: "OK",
          content: { "application/json": { schema: schemaOf(r.response, "input") } },
        },
        "400": { description: "入力内容の誤り", ...errorBody },
        ...(r.auth
          ? { "401": { description: "未認証", ...errorBody }, "403": { description: "権限なし", ...errorBody } }
          : {}),
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Enmusubi legacy REST API",
      version: info.version,
      description:
        'The legacy `/api/*` calls, reproduced for third-party clients. Errors answer `{ "message": "…" }` in Japanese.',
    },
    servers: [{ url: info.serverUrl }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: { Error: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } },
    },
    paths,
  };
}
